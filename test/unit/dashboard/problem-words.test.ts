import { describe, expect, it } from 'vitest';
import { fieldLabel, problemsInWords } from '../../../renderer/src/api/words.js';

const problem = (field: string, rule: string, message: string) => ({ field, rule, message });

describe("the bridge's validation details in words", () => {
  it('turns zod default messages into sentences naming the field', () => {
    expect(
      problemsInWords([
        problem('query.limit', 'invalid_type', 'Invalid input: expected number, received NaN'),
      ]),
    ).toBe('Limit must be a number.');
    expect(
      problemsInWords([
        problem('body.scheduledAt', 'invalid_type', 'Invalid input: expected string, received undefined'),
      ]),
    ).toBe('Scheduled at is required.');
    expect(
      problemsInWords([problem('body.limit', 'too_small', 'Too small: expected number to be >=1')]),
    ).toBe('Limit must be at least 1.');
    expect(problemsInWords([problem('body.limit', 'too_big', 'Too big: expected number to be <100')])).toBe(
      'Limit must be less than 100.',
    );
    expect(
      problemsInWords([
        problem('body.text', 'too_small', 'Too small: expected string to have >=1 characters'),
      ]),
    ).toBe('Text must not be empty.');
    expect(
      problemsInWords([problem('body.text', 'too_big', 'Too big: expected string to have <=280 characters')]),
    ).toBe('Text must be at most 280 characters.');
    expect(
      problemsInWords([
        problem(
          'body.platforms.0',
          'invalid_value',
          'Invalid option: expected one of "microblog"|"pinboard"',
        ),
      ]),
    ).toBe('Platforms (item 1) must be one of microblog or pinboard.');
    expect(problemsInWords([problem('body.crmUrl', 'invalid_format', 'Invalid URL')])).toBe(
      'Crm URL must be a web address.',
    );
  });

  it("keeps the bridge's own rule words and joins several problems", () => {
    expect(
      problemsInWords([
        problem('COLLECT_INTERVAL_HOURS', 'too_small', 'must be at least 1 hour'),
        problem(
          'POSTSVC_PLAN',
          'invalid_value',
          'Invalid option: expected one of "free"|"premium"|"business"',
        ),
      ]),
    ).toBe(
      'COLLECT_INTERVAL_HOURS must be at least 1 hour. POSTSVC_PLAN must be one of free, premium or business.',
    );
  });

  it('answers null for details of another shape, so the caller keeps the message', () => {
    expect(problemsInWords(undefined)).toBeNull();
    expect(problemsInWords(['a string'])).toBeNull();
    expect(problemsInWords([])).toBeNull();
  });

  it('names fields in words', () => {
    expect(fieldLabel('body.values.BRIDGE_PORT')).toBe('BRIDGE_PORT');
    expect(fieldLabel('params.id')).toBe('Id');
    expect(fieldLabel('')).toBe('The request');
  });

  it('names a field by the page’s own label where it has one (Settings), else as before', () => {
    const labels = new Map([['COLLECT_INTERVAL_HOURS', 'Collect analytics every (hours)']]);
    expect(
      problemsInWords(
        [
          problem('body.values.COLLECT_INTERVAL_HOURS', 'too_small', 'must be at least 1 hour'),
          problem('body.values.BRIDGE_PORT', 'invalid_type', 'Invalid input: expected number, received NaN'),
        ],
        (field) => labels.get(field),
      ),
    ).toBe('Collect analytics every (hours) must be at least 1 hour. BRIDGE_PORT must be a number.');
  });
});
