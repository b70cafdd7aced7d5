import { describe, expect, it } from 'vitest';
import { buildCsp, withCsp } from '../../../main/desktop/csp.js';

describe('buildCsp', () => {
  it('builds the dashboard policy of DESIGN §9', () => {
    expect(buildCsp()).toBe(
      "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; " +
        "object-src 'none'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
    );
  });

  it('allows no inline or remote script', () => {
    expect(buildCsp()).not.toMatch(/script-src|unsafe-eval|https?:/);
  });
});

describe('withCsp', () => {
  it('replaces any policy the server sent, whatever its case, and keeps the other headers', () => {
    const input = {
      'content-security-policy': ['default-src *'],
      'CONTENT-SECURITY-POLICY': ['script-src *'],
      'Content-Security-Policy-Report-Only': ["default-src 'none'"],
      'Content-Type': ['text/html'],
    };
    expect(withCsp(input, "default-src 'self'")).toEqual({
      'Content-Security-Policy-Report-Only': ["default-src 'none'"],
      'Content-Type': ['text/html'],
      'Content-Security-Policy': ["default-src 'self'"],
    });
    expect(input['content-security-policy']).toEqual(['default-src *']);
  });

  it('adds the policy when there were no headers', () => {
    expect(withCsp(undefined, "default-src 'self'")).toEqual({
      'Content-Security-Policy': ["default-src 'self'"],
    });
  });
});
