import { z } from 'zod';
import { HttpClient, type HttpClientOptions } from './http-client.js';
import type { PeerError } from './peer-error.js';

export interface AutomationClientOptions {
  url: string;
  authHeader?: { name: string; value: string };
  timeoutMs?: number;
  onAttempt?: HttpClientOptions['onAttempt'];
  keyRefusedFor?: HttpClientOptions['keyRefusedFor'];
}

/** n8n's answer to a webhook call it did not accept: `{code, message, hint?}` (DESIGN §5.4). */
const n8nError = z.looseObject({
  code: z.union([z.number(), z.string()]).optional(),
  message: z.string().optional(),
  hint: z.string().optional(),
});

const started = z.looseObject({ message: z.string().optional() });

/**
 * n8n (DESIGN §5.4): `POST {url}/webhook/{workflow}` starts a workflow. One attempt per call:
 * retries are the job queue's business (it survives restarts and backs off for minutes).
 */
export class AutomationClient {
  readonly http: HttpClient;

  constructor(options: AutomationClientOptions) {
    this.http = new HttpClient({
      peer: 'automation',
      baseUrl: options.url,
      headers: options.authHeader ? { [options.authHeader.name]: options.authHeader.value } : {},
      timeoutMs: options.timeoutMs ?? 15_000,
      retry: { attempts: 1, backoff: { baseMs: 0, maxMs: 0, jitter: 0 } },
      ...(options.onAttempt ? { onAttempt: options.onAttempt } : {}),
      ...(options.keyRefusedFor ? { keyRefusedFor: options.keyRefusedFor } : {}),
    });
  }

  /** Peer health: n8n's /healthz (any HTTP answer means reachable). */
  async probe(): Promise<void> {
    await this.http.request({ method: 'GET', path: '/healthz', timeoutMs: 5_000 });
  }

  /** Starts the workflow; n8n answers 200 `{"message":"Workflow was started"}` (or the workflow's own answer). */
  async startWorkflow(
    workflow: string,
    payload: unknown,
    options: { signal?: AbortSignal; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; message: string | null }> {
    const response = await this.http.request({
      method: 'POST',
      path: `/webhook/${encodeURIComponent(workflow)}`,
      body: payload,
      ...(options.headers ? { headers: options.headers } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const parsed = started.safeParse(response.body);
    return { status: response.status, message: parsed.success ? (parsed.data.message ?? null) : null };
  }
}

/** n8n's `message` and `hint` from a refused call, when its body has them. */
export function automationErrorBody(error: PeerError): { message: string | null; hint: string | null } {
  const parsed = n8nError.safeParse(error.details.body);
  if (!parsed.success) return { message: null, hint: null };
  return { message: parsed.data.message ?? null, hint: parsed.data.hint ?? null };
}
