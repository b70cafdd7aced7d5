/**
 * The bridge's validation `details` ([{field, rule, message}], DESIGN §4) as sentences for the
 * operator: "Limit must be a number." instead of "query.limit: Invalid input: expected number,
 * received NaN". Rules the bridge already words ("must be at least 1 hour") are kept; zod's
 * default messages are rewritten.
 */
export interface Problem {
  field: string;
  rule: string;
  message: string;
}

export function isProblem(value: unknown): value is Problem {
  if (typeof value !== 'object' || value === null) return false;
  const { field, rule, message } = value as Record<string, unknown>;
  return typeof field === 'string' && typeof rule === 'string' && typeof message === 'string';
}

/** Where in the request a field sits says nothing to the operator. */
const containers = new Set(['body', 'query', 'params', 'values']);

/** "body.scheduledAt" → "Scheduled at", "body.platforms.0" → "Platforms (item 1)"; config keys stay as written. */
export function fieldLabel(field: string): string {
  const parts = field.split('.').filter((part) => part !== '' && !containers.has(part));
  if (parts.length === 0) return 'The request';
  const words = parts.map((part) =>
    /^\d+$/.test(part)
      ? `(item ${Number(part) + 1})`
      : /^[A-Z0-9_]+$/.test(part)
        ? part
        : part
            .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
            .replace(/[_-]+/g, ' ')
            .toLowerCase()
            .replace(/\burl\b/g, 'URL'),
  );
  const label = words.join(' ');
  return label.charAt(0).toUpperCase() + label.slice(1);
}

const typeWords: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  string: 'text',
  boolean: 'yes or no',
  array: 'a list',
  object: 'a set of fields',
  date: 'a date',
};

function listOf(options: string[]): string {
  if (options.length <= 1) return options.join('');
  return `${options.slice(0, -1).join(', ')} or ${options.at(-1)}`;
}

/** zod's default messages → the rule in words ("must be a number"); anything else is already words. */
const rewrites: Array<[RegExp, (match: RegExpMatchArray) => string]> = [
  [/^Invalid input: expected \w+, received undefined/, () => 'is required'],
  [/^Invalid input: expected (\w+)/, (m) => `must be ${typeWords[m[1] ?? ''] ?? m[1]}`],
  [/^Too small: expected string to have >=?1 characters?$/, () => 'must not be empty'],
  [/^Too small: expected string to have >=?(\d+) characters?/, (m) => `must be at least ${m[1]} characters`],
  [/^Too big: expected string to have <=?(\d+) characters?/, (m) => `must be at most ${m[1]} characters`],
  [/^Too small: expected array to have >=?(\d+) items?/, (m) => `needs at least ${m[1]}`],
  [/^Too big: expected array to have <=?(\d+) items?/, (m) => `takes at most ${m[1]}`],
  [/^Too small: expected \w+ to be >=(\S+)/, (m) => `must be at least ${m[1]}`],
  [/^Too small: expected \w+ to be >(\S+)/, (m) => `must be more than ${m[1]}`],
  [/^Too big: expected \w+ to be <=(\S+)/, (m) => `must be at most ${m[1]}`],
  [/^Too big: expected \w+ to be <(\S+)/, (m) => `must be less than ${m[1]}`],
  [
    /^Invalid option: expected one of (.+)$/,
    (m) => `must be one of ${listOf((m[1] ?? '').split('|').map((o) => o.replace(/^"|"$/g, '')))}`,
  ],
  [/^Invalid input: expected (.+)$/, (m) => `must be ${m[1]}`],
  [/^Invalid (URL|url)$/, () => 'must be a web address'],
  [/^Invalid email address$/, () => 'must be an email address'],
  [/^Invalid (ISO )?(datetime|date)/, () => 'must be a date and time'],
  [/^Invalid string: must match pattern/, () => 'is not in the expected format'],
  [/^Unrecognized keys?: (.+)$/, (m) => `has fields the bridge does not know: ${m[1]}`],
];

function ruleWords(message: string): string {
  for (const [pattern, words] of rewrites) {
    const match = message.match(pattern);
    if (match) return words(match);
  }
  return message;
}

export function problemSentence(problem: Problem): string {
  const sentence = `${fieldLabel(problem.field)} ${ruleWords(problem.message)}`.trim();
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** The details as sentences, or null when they are not the bridge's [{field, rule, message}]. */
export function problemsInWords(details: unknown): string | null {
  if (!Array.isArray(details) || details.length === 0 || !details.every(isProblem)) return null;
  return details.map(problemSentence).join(' ');
}
