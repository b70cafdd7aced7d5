/**
 * An EspoCRM error: the HTTP status and the reason, which travels in the `X-Status-Reason`
 * header (the body is empty, or for 409 duplicates a JSON list).
 */
export class CrmError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    readonly body?: unknown,
  ) {
    super(`CRM ${status}: ${reason}`);
    this.name = 'CrmError';
  }
}

export const badRequest = (reason: string): CrmError => new CrmError(400, reason);
export const notFound = (reason: string): CrmError => new CrmError(404, reason);
