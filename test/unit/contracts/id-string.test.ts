import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ID_MAX_CHARS, idString } from '../../../shared/api/contract.js';

const problem = (value: unknown) => {
  const result = idString.safeParse(value);
  return result.success ? null : result.error.issues.map((issue) => issue.message).join('; ');
};

describe('idString: the one schema of every id the API takes (issue #12.7)', () => {
  it.each([
    ['a CRM id', '64f1c0ffee0123456789abcd'],
    ['a provider id', 'post_3f9a-77:b.x'],
    ['non-ASCII letters', 'épisode-12'],
    ['a surrogate pair (one character)', 'clip-😀'],
    ['exactly 64 characters', 'x'.repeat(ID_MAX_CHARS)],
    ['64 astral characters (128 UTF-16 units)', '😀'.repeat(ID_MAX_CHARS)],
  ])('accepts %s', (_what, id) => {
    expect(problem(id)).toBeNull();
  });

  it.each([
    ['empty', '', 'must not be empty'],
    ['blank', '   ', 'must not start or end with a space'],
    ['a leading space', ' abc', 'must not start or end with a space'],
    ['65 characters', 'x'.repeat(65), 'is 65 characters long, at most 64'],
    ['100,000 characters', 'x'.repeat(100_000), 'is 100000 characters long, at most 64'],
    ['a lone high surrogate', 'abc\ud800', 'unpaired surrogate'],
    ['a lone low surrogate', '\udc00abc', 'unpaired surrogate'],
    ['a NUL', 'ab\u0000c', 'control characters'],
    ['a newline', 'ab\nc', 'control characters'],
    ['DEL', 'ab\u007fc', 'control characters'],
    ['a C1 control', 'ab\u0085c', 'control characters'],
    ['a dot segment', '.', 'must not be "." or ".."'],
    ['two dots', '..', 'must not be "." or ".."'],
  ])('refuses %s, naming the rule', (_what, id, rule) => {
    expect(problem(id)).toContain(rule);
  });

  it('refuses what is not a string', () => {
    expect(problem(42)).toMatch(/string/);
  });

  it('states its rule in JSON Schema (minLength, maxLength, a pattern that agrees with it)', () => {
    const json = z.toJSONSchema(idString, { io: 'input' }) as {
      minLength: number;
      maxLength: number;
      pattern: string;
    };
    expect(json).toMatchObject({ type: 'string', minLength: 1, maxLength: ID_MAX_CHARS });
    const pattern = new RegExp(json.pattern, 'u');
    for (const good of ['a', '...', '.a', 'épisode-12', 'clip-😀', 'a b', 'x'.repeat(64)]) {
      expect(pattern.test(good), good).toBe(true);
    }
    for (const bad of [
      '',
      '.',
      '..',
      ' a',
      'a ',
      'a\u0000',
      'a\u0085',
      'a\ud800',
      '\udc00',
      'x'.repeat(65),
    ]) {
      expect(pattern.test(bad), JSON.stringify(bad)).toBe(false);
    }
  });
});
