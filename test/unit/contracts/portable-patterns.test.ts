import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../../main/http/openapi.js';
import type { RouteContract } from '../../../shared/api/contract.js';

/**
 * Issue #25.6: every `pattern` /openapi.json publishes is in the subset common OpenAPI tools
 * (Schemathesis, Python's `re`, fast-check) read alike: ASCII text, non-ASCII written as `\uXXXX`,
 * no `\p{…}`, no look-arounds, no back-references, no shorthand classes whose meaning depends on
 * the engine's Unicode mode (`\d \w \s \b`: Python's `\d` takes Arabic-Indic digits). The exact
 * rule stays in the server's zod validation; a published pattern may be stricter, never looser.
 */

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/api');

function isContract(value: unknown): value is RouteContract {
  return (
    typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'response' in value
  );
}

async function allContracts(): Promise<RouteContract[]> {
  const contracts: RouteContract[] = [];
  for (const file of readdirSync(apiDir).filter((name) => name.endsWith('.ts'))) {
    const module: Record<string, unknown> = await import(path.join(apiDir, file));
    contracts.push(...Object.values(module).filter(isContract));
  }
  return contracts;
}

function publishedPatterns(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((child) => publishedPatterns(child, found));
  else if (typeof node === 'object' && node !== null)
    for (const [key, value] of Object.entries(node)) {
      if (key === 'pattern' && typeof value === 'string') found.add(value);
      else publishedPatterns(value, found);
    }
  return found;
}

/** What in `pattern` is outside the portable subset, or null. */
function unportable(pattern: string): string | null {
  const nonAscii = /[^\x20-\x7e]/.exec(pattern);
  if (nonAscii) return `a character outside printable ASCII (U+${nonAscii[0].codePointAt(0)!.toString(16)})`;
  if (/\(\?<?[=!]/.test(pattern)) return 'a look-around';
  if (/\(\?</.test(pattern)) return 'a named group';
  // Escapes read one at a time, so `\\p` (a backslash, then p) is not taken for `\p`.
  for (const escape of pattern.matchAll(/\\(.)/g)) {
    const letter = escape[1]!;
    if (letter === 'p' || letter === 'P') return 'a \\p{…} class';
    if ('dDwWsSbB'.includes(letter)) return `\\${letter} (its meaning depends on the engine)`;
    if (/[1-9k]/.test(letter)) return 'a back-reference';
    if (letter === 'u' && !/^\\u[0-9A-Fa-f]{4}/.test(pattern.slice(escape.index))) return 'a \\u{…} escape';
  }
  return null;
}

describe('published patterns are portable (issue #25.6)', () => {
  it('the subset check itself refuses what common tools cannot read', () => {
    expect(unportable(String.raw`^[^\p{Cc}]$`)).toContain('\\p');
    expect(unportable(String.raw`^(?!\.\.?$)a$`)).toBe('a look-around');
    expect(unportable(String.raw`^\d{4}$`)).toContain('\\d');
    expect(unportable('^é$')).toContain('printable ASCII');
    expect(unportable(String.raw`^\u{1F600}$`)).toContain('\\u{');
    expect(unportable(String.raw`^[^\u0000-\u001f\\]$`)).toBeNull();
    expect(unportable(String.raw`^\\p$`)).toBeNull();
  });

  it('every pattern of /openapi.json is in the subset, and fast-check generates a value for it', async () => {
    const patterns = [...publishedPatterns(buildOpenApi(await allContracts(), 'test'))];
    expect(patterns.length).toBeGreaterThan(5);
    const outside = patterns.flatMap((pattern) => {
      const problem = unportable(pattern);
      return problem ? [`${pattern}: ${problem}`] : [];
    });
    expect(outside).toEqual([]);
    for (const pattern of patterns) {
      const regex = new RegExp(pattern, 'u');
      const samples = fc.sample(fc.stringMatching(regex), { numRuns: 20, seed: 25 });
      expect(samples.length, pattern).toBe(20);
      for (const sample of samples) expect(regex.test(sample), `${pattern} generated ${sample}`).toBe(true);
    }
  });
});
