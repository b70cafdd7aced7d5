import { postingPlatforms, type PlatformKey } from '../../../shared/platforms.js';
import { formatLocal, formatUtc, localizeInstants } from '../format.js';

/**
 * The posting rules' messages (shared/post-rules.ts) and the bridge's refusals, in words for a
 * person and placed at their field (issue #30.4). The bridge answers integrators with
 * `field: rule` ("scheduleDate: 2026-11-26T20:00:00.000Z is in the past (now …)", DESIGN §4);
 * the composer, the Edit dialog and the calendar read that field path to know where the
 * message goes and say the rule as a sentence, with local time and UTC beside any instant.
 * No rule is judged here: only the bridge's (and the shared rules') verdicts are worded.
 */

/** A post form's fields, named by the API's field paths. */
export type PostField = 'post' | 'platforms' | 'hashtags' | 'mediaUrls' | 'scheduleDate';

export interface FieldWords {
  /** The field it is about; null: the form as a whole. */
  field: PostField | null;
  /** For one media link: its place in the list (0-based), as the bridge's `mediaUrls.0` names it. */
  index: number | null;
  text: string;
}

const fields = new Set<string>(['post', 'platforms', 'hashtags', 'mediaUrls', 'scheduleDate']);
/** A CRM post's names for the same fields, as the bridge words its records' failures (`scheduledAt: …`). */
const crmNames: Record<string, PostField> = {
  content: 'post',
  scheduledAt: 'scheduleDate',
  mediaUrl: 'mediaUrls',
};
/** Where in the request a field sits (`body.mediaUrls.0`) says nothing about the field. */
const containers = new Set(['body', 'query', 'params']);

/** `body.mediaUrls.0` → mediaUrls, index 0; a path that is no post field → null. */
export function fieldOfPath(path: string): { field: PostField | null; index: number | null } {
  const parts = path.split('.').filter((part) => part !== '' && !containers.has(part));
  const [written, item] = parts;
  const name = written !== undefined && Object.hasOwn(crmNames, written) ? crmNames[written] : written;
  if (name === undefined || !fields.has(name)) return { field: null, index: null };
  return { field: name as PostField, index: item !== undefined && /^\d+$/.test(item) ? Number(item) : null };
}

/** "Fri, Nov 27, 10:14 AM (2026-11-27 09:14 UTC)". */
export function localWithUtc(iso: string): string {
  return `${formatLocal(iso)} (${formatUtc(iso)})`;
}

const platformName = (key: string) => postingPlatforms[key as PlatformKey]?.label ?? key;
const minutes = (n: number) => (n === 1 ? '1 minute' : `${n} minutes`);

function sentence(text: string): string {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

type Wording = [RegExp, (match: RegExpMatchArray) => string];

/** The rules' problems (the message after `field: `), per field, as sentences. */
const wordings: Record<PostField, Wording[]> = {
  scheduleDate: [
    [/^(\S+) is in the past\b/, (m) => `That time has passed: ${localWithUtc(m[1]!)}. Pick a later time.`],
    [
      /^this post was due at (\S+), which has passed/,
      (m) => `This post was due ${localWithUtc(m[1]!)}, which has passed: give it a new time.`,
    ],
    [
      /^(\S+) is more than (\d+) years ahead \(latest (\S+)\)/,
      (m) => `That is more than ${m[2]} years ahead: the latest is ${localWithUtc(m[3]!)}. Check the year.`,
    ],
    [/^(\S+) is before (\d{4})/, (m) => `That date is before ${m[2]}: check the year.`],
    [/is not an ISO 8601 date-time/, () => 'Give a full date and time.'],
  ],
  mediaUrls: [
    [
      /^"(.*)" is not an http\(s\) URL$/,
      (m) => `“${m[1]}” is not a web address: a media link starts with https:// or http://.`,
    ],
    [/^(\w+) needs (.+?); none given$/, (m) => `${platformName(m[1]!)} needs ${m[2]}: add a media link.`],
    [
      /^(\w+) needs (.+?); the kind of (.+) cannot be told from its extension$/,
      (m) => `${platformName(m[1]!)} needs ${m[2]}: ${m[3]} does not say what it is; make sure it is one.`,
    ],
    [/^(\w+) needs (.+?); (.+)$/, (m) => `${platformName(m[1]!)} needs ${m[2]}: ${m[3]}.`],
  ],
  post: [
    [/^must not be empty/, () => 'Write the post first.'],
    [
      /^(\d+) characters, (\w+) allows (\d+)/,
      (m) => `Too long for ${platformName(m[2]!)}: ${m[1]} characters, it allows ${m[3]}.`,
    ],
  ],
  platforms: [
    [/^choose at least one platform/, () => 'Choose at least one platform.'],
    [
      /^(.+) listed more than once/,
      (m) => `${m[1]!.split(', ').map(platformName).join(', ')} is chosen more than once.`,
    ],
  ],
  hashtags: [
    [
      /^"(.*)" is not a hashtag/,
      (m) => `“${m[1]}” is not a hashtag: one word, no spaces, without another #.`,
    ],
  ],
};

/** A rule's problem in words; a problem no wording knows is the bridge's own text, its instants made local. */
function problemWords(field: PostField | null, problem: string): string {
  for (const [pattern, words] of field ? wordings[field] : []) {
    const match = problem.match(pattern);
    if (match) return words(match);
  }
  return sentence(localizeInstants(problem));
}

/** One of the rules' issues (`{field, message}`, as the bridge's details and the shared rules give them). */
export function issueWords(issue: { field: string; message: string }): FieldWords {
  const { field, index } = fieldOfPath(issue.field);
  const problem = issue.message.replace(/^[\w.]+: /, '');
  return { field, index, text: problemWords(field, problem) };
}

/** `mediaUrls.0: "ftp://…" is not an http(s) URL` → the field path and the problem. */
function splitFieldMessage(message: string): { field: string; message: string } | null {
  const match = message.match(/^([A-Za-z][\w]*(?:\.[\w]+)*): (.+)$/s);
  return match ? { field: match[1]!, message: match[2]! } : null;
}

/**
 * The posting rules' warnings (plain strings in the bridge's answers): a time soon, another
 * post close by, a media link of unknown kind. `at` is the draft's time, said beside the lead.
 */
export function warningWords(warning: string, at?: string | null): FieldWords {
  const lead = warning.match(/^scheduleDate is (\d+) min ahead/);
  if (lead) {
    const n = Number(lead[1]);
    const soon = n < 1 ? 'less than a minute' : minutes(n);
    const when = at ? ` (${formatLocal(at)} · ${formatUtc(at)})` : '';
    return {
      field: 'scheduleDate',
      index: null,
      text: `The time is only ${soon} from now${when}: at least 10 minutes ahead is recommended.`,
    };
  }
  const spacing = warning.match(/^(\w+): another post goes out at (\S+) \((\d+) min apart\)/);
  if (spacing) {
    const n = Number(spacing[3]);
    const apart = n < 1 ? 'at the same time as this one' : `${minutes(n)} from this one`;
    return {
      field: 'scheduleDate',
      index: null,
      text: `Another ${platformName(spacing[1]!)} post goes out ${localWithUtc(spacing[2]!)}, ${apart}: 2 to 3 hours apart is recommended.`,
    };
  }
  const named = splitFieldMessage(warning);
  if (named && fieldOfPath(named.field).field) return issueWords(named);
  return { field: null, index: null, text: sentence(localizeInstants(warning)) };
}

/**
 * A failure the bridge recorded on a post ("mediaUrl: photogram needs an image or a video; none
 * given"), in words when it names a post field; any other text with its instants made local.
 */
export function recordedErrorWords(text: string): string {
  const named = splitFieldMessage(text);
  if (named && fieldOfPath(named.field).field) return issueWords(named).text;
  // The provider's own refusal names its field at the end ("photogram requires an image or a video in mediaUrls.").
  const media = text.match(/^(\w+) requires (.+?) in mediaUrls\.?$/);
  if (media) return `${platformName(media[1]!)} needs ${media[2]}: add a media link.`;
  return localizeInstants(text);
}

/** The codes with which the bridge refuses a draft's values (DESIGN §4): the ones placed at a field. */
const fieldCodes = new Set(['VALIDATION_ERROR', 'INVALID_DATE', 'INVALID_MEDIA']);

function isIssue(value: unknown): value is { field: string; message: string } {
  if (typeof value !== 'object' || value === null) return false;
  const { field, message } = value as Record<string, unknown>;
  return typeof field === 'string' && typeof message === 'string';
}

/**
 * A refusal from the bridge at the fields it names: by its `details` ([{field, rule, message}])
 * when it gives them, else by the `field: ` its `error` starts with. Empty when the refusal is
 * not about a post field (quota, a peer down, a conflict): the form says those as a whole.
 */
export function refusalWords(refusal: {
  code?: string | undefined;
  message: string;
  details?: unknown;
}): FieldWords[] {
  if (refusal.code === undefined || !fieldCodes.has(refusal.code)) return [];
  const issues = Array.isArray(refusal.details) && refusal.details.every(isIssue) ? refusal.details : null;
  const named = issues && issues.length > 0 ? issues : [splitFieldMessage(refusal.message)].filter(isIssue);
  const words = named.map(issueWords);
  return words.every((w) => w.field !== null) ? words : [];
}

/** How a form points the operator to a field ("The bridge refused it: see the time above"). */
export const fieldNames: Record<PostField, string> = {
  post: 'the text',
  platforms: 'the platforms',
  hashtags: 'the hashtags',
  mediaUrls: 'the media links',
  scheduleDate: 'the time',
};
