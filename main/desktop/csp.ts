/**
 * Content-Security-Policy of the dashboard in the desktop window (DESIGN §9). Pure: no Electron imports.
 * Set on every response from the bridge's origin, replacing any policy the bridge itself sent, so the
 * window's policy is defined here in one place.
 */
export type CspDirectives = Readonly<Record<string, readonly string[]>>;

export const dashboardCsp = {
  'default-src': ["'self'"],
  'connect-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  // Charts and component libraries set inline style attributes.
  'style-src': ["'self'", "'unsafe-inline'"],
  'object-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  // Not covered by default-src: no <base> rewriting, no form posting elsewhere.
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
} as const satisfies CspDirectives;

export function buildCsp(directives: CspDirectives = dashboardCsp): string {
  return Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ');
}

export type ResponseHeaders = Record<string, string[]>;

/** The response headers with every `Content-Security-Policy` header (any case) replaced by `csp`. */
export function withCsp(headers: ResponseHeaders | undefined, csp: string): ResponseHeaders {
  const result: ResponseHeaders = {};
  for (const [name, values] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() !== 'content-security-policy') result[name] = values;
  }
  result['Content-Security-Policy'] = [csp];
  return result;
}
