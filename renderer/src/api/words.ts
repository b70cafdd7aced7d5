import type { ErrorCode, PeerFailure } from '../../../shared/api/contract.js';
import type { PeerHealth, PeerName, PeerState } from '../../../shared/api/health.js';
import type { ConnectionTestResult } from '../../../shared/api/settings.js';
import { formatClock, formatTime } from '../format.js';
import type { ClientErrorCode } from './transport/client-error-code.js';

/*
 * The dashboard's words for what failed, in one module: an error code's advice, a peer's failure,
 * and the bridge's validation details as sentences.
 */

// ---------- Error codes ----------

/**
 * What went wrong and what to do, in words, per error code (DESIGN §4's codes and the
 * client's own). Error states show this sentence first; the bridge's own message and the code
 * follow in small print for whoever reads logs. Codes the bridge may add later fall back to
 * the HTTP status class.
 */
const advice: Record<ErrorCode | ClientErrorCode, string> = {
  VALIDATION_ERROR: 'A value was not accepted: correct it and try again.',
  INVALID_DATE: 'A date was not accepted: pick another and try again.',
  INVALID_ENCODING:
    'Some text was not sent as UTF-8 (a pasted character may be broken): retype it and try again.',
  UNAUTHORIZED:
    'The bridge refused this browser’s key. Enter the key again (it is in Settings on the bridge’s computer).',
  NOT_FOUND: 'It is no longer there (deleted or changed elsewhere). Reload the list.',
  METHOD_NOT_ALLOWED:
    'This dashboard and the bridge do not agree on this action: they may be different versions. Reload the page.',
  PAYLOAD_TOO_LARGE: 'That is too large for the bridge. Send something smaller.',
  UNSUPPORTED_MEDIA_TYPE:
    'The bridge did not understand the request. Reload the page; if it happens again, the versions may differ.',
  RATE_LIMIT: 'A service is limiting how fast the bridge may ask. Wait a minute, then try again.',
  QUOTA_EXCEEDED: 'Today’s posting quota is used up. It resets at 00:00 UTC.',
  TOO_MANY_CONNECTIONS: 'The bridge is busy with too many connections. Try again in a moment.',
  REQUEST_TIMEOUT: 'The request reached the bridge too slowly. Check the connection and try again.',
  RANGE_NOT_SATISFIABLE: 'Only part of a file was asked for, past its end. Download it again from the start.',
  CONFLICT: 'Something else changed this at the same time. Reload, check, and try again.',
  ALREADY_PUBLISHED:
    'It is already published, so it cannot be cancelled: the public can see it. Deleting it from the platform is a separate action.',
  AUTH_ERROR: 'A connected service refused the bridge’s credentials. Check its key in Settings.',
  INVALID_MEDIA: 'A platform needs other media: change the media link and try again.',
  PLATFORM_ERROR: 'A platform refused it; its reason is below. Fix the cause and try again.',
  DB_ERROR:
    'The bridge could not read or write its own database. Try again; if it keeps failing, restart the bridge and look at its log.',
  STORAGE_FULL:
    "The bridge's disk is full: nothing was saved. Free space in its data folder; the bridge recovers by itself, then try again.",
  COLLECTION_FAILED:
    'No platform could be read, so nothing was saved. Check the posting provider (Overview shows whether it is reachable), then collect again.',
  STREAMHOST_ERROR:
    'The live-broadcast host failed. Try again in a minute; if it keeps failing, check the gateway in Settings.',
  CHANNEL_NOT_FOUND:
    'The host has no such channel. Choose another channel or leave it empty for the default.',
  RTMP_INVALID: 'The stream address was refused. It must start with rtmp:// or rtmps://.',
  AUTH_EXPIRED: 'A platform’s sign-in has expired. Reconnect it at the provider, then try again.',
  END_NOT_SUPPORTED:
    'The publishing gateway cannot end broadcasts. End it in the host’s own dashboard (the Dashboard link); nothing was deleted.',
  CRM_ERROR:
    'The CRM did not answer as expected. Check that the CRM is up and the API user’s key in Settings, then try again.',
  AUTOMATION_ERROR:
    'The automation engine (n8n) failed. Check the workflow in n8n, then run it again from the Guests page.',
  NOT_CONFIGURED: 'This needs a service that is not set up yet. Add it in Settings.',
  ANALYSIS_UNAVAILABLE: 'Clip analysis is not available right now. Try again in a moment.',
  INTERNAL_ERROR:
    'Something went wrong inside the bridge. Try again; if it keeps happening, the bridge’s log says more.',
  NETWORK_ERROR:
    'The dashboard cannot reach the bridge. Check that the bridge is running (and the network, on a LAN); this page tries again by itself.',
  BAD_RESPONSE:
    'The bridge answered in a way this dashboard does not understand: they may be different versions. Reload the page.',
};

/** The sentence for a code, else for the HTTP status (0: unreachable). */
export function adviceFor(code: string | undefined, status: number): string {
  if (code !== undefined && Object.hasOwn(advice, code)) return advice[code as keyof typeof advice];
  if (status === 0) return advice.NETWORK_ERROR;
  if (status >= 500) return 'The bridge or a service behind it failed. Try again in a moment.';
  if (status >= 400) return 'The bridge refused the request. Check the values and try again.';
  return 'Something went wrong. Try again.';
}

// ---------- Peer failures ----------

/**
 * A peer's failure in words (issue #30): what happened and what to do, by its cause as the
 * bridge reports it in the error envelope's `peer`. One advice per peer ("check the API user's
 * key") whatever happened sent operators to Settings when the CRM was merely off.
 */
const peerLabels: Record<PeerFailure['name'], string> = {
  crm: 'The CRM',
  postsvc: 'The posting provider',
  gateway: 'The publishing gateway',
  automation: 'The automation engine (n8n)',
  obs: 'OBS',
};

/** "1 min", "45 s": how long a peer asked the bridge to wait. */
export function waitWords(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  return `${Math.round(seconds / 60)} min`;
}

/**
 * The sentence for a peer's failure; null when the peer refused what was sent (its reason is the
 * message). No HTTP status: it is in the error's Details (issue #40.4).
 */
export function peerFailureSentence(peer: PeerFailure): string | null {
  const who = peerLabels[peer.name];
  switch (peer.cause) {
    case 'unreachable':
      return `${who} could not be reached: it is off, or its address in Settings is wrong. Try again once it is back.`;
    case 'no-answer':
      return `${who} did not answer in time: it may be overloaded. Try again in a minute.`;
    case 'throttled':
      return `${who} is limiting how often the bridge may ask${peer.retryAfterS === undefined ? '' : ` and asked it to wait ${waitWords(peer.retryAfterS)}`}. Try again after that; queued work waits by itself.`;
    case 'refused-key':
      return `${who} refused the bridge’s key. Check its key in Settings.`;
    case 'failing':
      return `${who} is failing. Try again in a minute; if it keeps failing, look at it directly.`;
    case 'unreadable':
      return `${who} answered something the bridge could not read. Check that its address in Settings points at it and not at another service.`;
    case 'refused':
      return null;
  }
}

/**
 * A peer's failure said as past, once /health reads the peer reachable again (issue #40.2): "The
 * CRM could not be reached at 10:42 AM; it is back now." Null for a refusal of what was sent: that
 * is no peer state, and stays as it was said.
 */
export function peerFailurePast(peer: PeerFailure, at: string): string | null {
  const who = peerLabels[peer.name];
  const when = formatTime(at);
  switch (peer.cause) {
    case 'unreachable':
      return `${who} could not be reached at ${when}; it is back now.`;
    case 'no-answer':
      return `${who} did not answer in time at ${when}; it answers again now.`;
    case 'throttled':
      return `${who} was limiting how often the bridge may ask at ${when}; it no longer is.`;
    case 'refused-key':
      return `${who} refused the bridge’s key at ${when}; it accepts it now.`;
    case 'failing':
      return `${who} was failing at ${when}; it answers again now.`;
    case 'unreadable':
      return `${who} answered something the bridge could not read at ${when}; it answers again now.`;
    case 'refused':
      return null;
  }
}

/**
 * A gateway's failure as its publish record keeps it (`CODE: message (details)`) in words: the
 * message without its code or HTTP status, which go to the details whole.
 */
export function gatewayFailureWords(text: string): { words: string; details: string | null } {
  const words = text
    .replace(/^[A-Z][A-Z0-9_]+:\s*/, '')
    .replace(/\s*\((?:HTTP )?\d{3}\)/g, '')
    .trim();
  if (words === text.trim()) return { words: text, details: null };
  const sentence = words.charAt(0).toUpperCase() + words.slice(1);
  return { words: /[.!?]$/.test(sentence) ? sentence : `${sentence}.`, details: text };
}

/**
 * What long work waits on, while it waits (issue #40.2): "Waiting for the posting provider: it is
 * limiting how often the bridge may ask, until 14:05."
 */
export function waitingWords(waiting: {
  on: PeerFailure['name'];
  reason: 'throttled';
  /** Null when the peer did not say. */
  until: string | null;
}): string {
  return `Waiting for ${whoInSentence(waiting.on)}: ${waitingReason(waiting)}.`;
}

/** Why a peer holds the bridge back, beside a button that already says who: "it is limiting … until 14:05". */
export function waitingReason(waiting: { reason: 'throttled'; until: string | null }): string {
  if (waiting.until === null) return 'it is limiting how often the bridge may ask';
  // A wait of seconds says its seconds: "until 14:05" read wrong at 14:05.
  const soon = new Date(waiting.until).getTime() - Date.now() < 120_000;
  return `it is limiting how often the bridge may ask, until ${(soon ? formatClock : formatTime)(waiting.until)}`;
}

/** A button's label while its request waits on a peer: "Waiting for the posting provider…". */
export function waitingLabel(on: PeerFailure['name']): string {
  return `Waiting for ${whoInSentence(on)}…`;
}

const whoInSentence = (name: PeerFailure['name']): string => peerLabels[name].replace(/^The /, 'the ');

// ---------- Peer states ----------

/** Each peer's name on the Overview, the header and Settings. */
export const peerNamesInWords: Record<PeerName, string> = {
  crm: 'CRM',
  postsvc: 'Posting provider',
  gateway: 'Publishing gateway',
  automation: 'Automation',
  obs: 'Recorder (OBS)',
};

/** The one word for a peer's state (GET /health's `state`, issue #38.3), as every screen says it. */
const peerStateLabels: Record<PeerState, string> = {
  reachable: 'Reachable',
  throttled: 'Throttled',
  failing: 'Failing',
  unreachable: 'Unreachable',
  'refused-key': 'Refused key',
};

/** "Throttled until 14:05", "Failing", "Not checked yet", "Not configured". */
export function peerStateWords(peer: PeerHealth): string {
  if (!peer.configured) return 'Not configured';
  if (peer.state === null) return 'Not checked yet';
  const label = peerStateLabels[peer.state];
  return peer.state === 'throttled' && peer.until !== null
    ? `${label} until ${formatTime(peer.until)}`
    : label;
}

/** "Posting provider · Throttled until 14:05". */
export function peerLine(name: PeerName, peer: PeerHealth): string {
  return `${peerNamesInWords[name]} · ${peerStateWords(peer)}`;
}

/** A peer's state, when not reachable, as what it means for the bridge (the card's line under the pill). */
const stateSentences: Record<Exclude<PeerState, 'reachable'>, (who: string) => string> = {
  throttled: (who) => `${who} is limiting how often the bridge may ask; queued work waits by itself.`,
  failing: (who) => `${who} answers with errors.`,
  unreachable: (who) => `${who} cannot be reached: it is off, or its address in Settings is wrong.`,
  'refused-key': (who) => `${who} refuses the bridge’s key. Check its key in Settings.`,
};

/**
 * A peer's last error on its card (issue #40.2): current, in words by its state (the raw text is
 * for Details), or past once a reading after it is reachable — its time, and that it has answered
 * since. Null when there is no error to speak of.
 */
export function peerCardWords(name: PeerName, peer: PeerHealth): { current: boolean; words: string } | null {
  if (peer.lastError === null || !peer.configured) return null;
  if (peer.state === 'reachable' || peer.state === null) {
    const when = peer.lastErrorAt === null ? '' : ` at ${formatTime(peer.lastErrorAt)}`;
    return { current: false, words: `Last failed${when}; it has answered since.` };
  }
  if (peer.state === 'refused-key' && peer.refusedKeyFor !== null) {
    return {
      current: true,
      words: `Its key was saved for ${peer.refusedKeyFor}, not this address: the bridge sends it nothing. Save its key again in Settings.`,
    };
  }
  return { current: true, words: stateSentences[peer.state](peerLabels[name]) };
}

/** A configured peer whose state is known and not `reachable`: the bridge is degraded for it. */
export function isPeerDown(peer: PeerHealth): boolean {
  return peer.configured && peer.state !== null && peer.state !== 'reachable';
}

// ---------- Validation problems ----------

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

/** `labelOf`: a field's own label where the page has one (Settings: "Collect analytics every (hours)"). */
export function problemSentence(problem: Problem, labelOf?: (field: string) => string | undefined): string {
  const where = problem.field
    .split('.')
    .filter((part) => !containers.has(part))
    .join('.');
  const label = labelOf?.(where) ?? fieldLabel(problem.field);
  const sentence = `${label} ${ruleWords(problem.message)}`.trim();
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** The details as sentences, or null when they are not the bridge's [{field, rule, message}]. */
export function problemsInWords(
  details: unknown,
  labelOf?: (field: string) => string | undefined,
): string | null {
  if (!Array.isArray(details) || details.length === 0 || !details.every(isProblem)) return null;
  return details.map((problem) => problemSentence(problem, labelOf)).join(' ');
}

// ---------- Connection tests (Settings, issue #41.1) ----------

/** What a peer is, for "answers, but not as a CRM does". */
const peerKinds: Record<PeerName, string> = {
  crm: 'a CRM (EspoCRM)',
  postsvc: 'a posting provider',
  gateway: 'a publishing gateway',
  automation: 'n8n',
  obs: 'OBS (obs-websocket)',
};

/** What the peer takes to let the bridge in. */
const peerSecretWords: Record<PeerName, string> = {
  crm: 'key',
  postsvc: 'key',
  gateway: 'key',
  automation: 'auth header',
  obs: 'password',
};

/**
 * What a Test connection found, in a sentence or two, and its tone: "Reachable: the CRM answered in
 * 42 ms and accepted the key (API user studio-bridge)." Peer failures say what the error envelope's
 * causes say everywhere else.
 */
export function connectionTestWords(result: ConnectionTestResult): {
  tone: 'ok' | 'warn' | 'bad';
  text: string;
} {
  const who = peerLabels[result.peer];
  const whom = who.replace(/^The /, 'the ');
  const secret = peerSecretWords[result.peer];
  const kept =
    result.credentials === 'none' && result.savedKeyFor !== null
      ? ` The saved ${secret} was not sent: it belongs to ${result.savedKeyFor}.`
      : '';
  const detail = result.detail ? ` (${result.detail})` : '';
  switch (result.outcome) {
    case 'reachable': {
      const took =
        result.peer === 'automation'
          ? '. n8n checks the auth header only when a workflow starts'
          : result.credentials === 'none'
            ? `; no ${secret} was sent`
            : ` and accepted the ${secret}`;
      return {
        tone: 'ok',
        text: `Reachable: ${whom} answered in ${result.latencyMs ?? 0} ms${took}${detail}.${kept}`,
      };
    }
    case 'refused-key': {
      const text =
        result.credentials === 'given'
          ? `${who} refused this ${secret}${detail}.`
          : result.credentials === 'saved'
            ? `${who} refused the saved ${secret}${detail}: enter the right one and save it.`
            : `${who} asks for a ${secret}, and none was sent.${kept} Enter the ${secret} for this address to test with it.`;
      return { tone: 'bad', text };
    }
    case 'not-found':
      return {
        tone: 'bad',
        text: `Not found: nothing of ${whom}’s API answers at this address${result.peer === 'crm' ? ' (give the CRM’s address without /api/v1)' : ''}. Check the address.${kept}`,
      };
    case 'unreadable':
      return {
        tone: 'bad',
        text: `Not ${peerKinds[result.peer]}: something answers at this address, but not as ${peerKinds[result.peer]} does. Check that it points at ${whom} and not at another service.${kept}`,
      };
    case 'redirected':
      return {
        tone: 'warn',
        text: `This address sends the bridge elsewhere${result.detail ? ` (to ${result.detail})` : ''}; the bridge does not follow it, so nothing went there. Enter that address instead.`,
      };
    case 'refused':
      return { tone: 'bad', text: `${who} refused the request${detail}.${kept}` };
    case 'not-configured':
      return { tone: 'warn', text: `No address is set for ${whom}: enter one to test it.` };
    default: {
      const sentence = peerFailureSentence({
        name: result.peer,
        cause: result.outcome,
        ...(result.retryAfterS === null ? {} : { retryAfterS: result.retryAfterS }),
      });
      return {
        tone: result.outcome === 'throttled' ? 'warn' : 'bad',
        text: `${sentence ?? `${who} failed.`}${kept}`,
      };
    }
  }
}

/** The peers as a sentence's subject, by the name the bridge's peer clients put first in their messages. */
const peerSubjects: Record<string, string> = {
  crm: 'The CRM',
  postsvc: 'The posting provider',
  gateway: 'The publishing gateway',
  automation: 'The automation engine (n8n)',
};

/**
 * A job's last error as the bridge's peer clients write it ("crm GET /api/v1/X: HTTP 500", "…: no
 * answer within 10000 ms") in words, the raw line for Details; a message of the bridge's own is
 * already words and kept as it is (issue #40.4).
 */
export function jobFailureWords(raw: string): { words: string; details: string | null } {
  const call = /^(crm|postsvc|gateway|automation) [A-Z]+ \S+: (.*)$/.exec(raw);
  if (!call) return { words: raw, details: null };
  const who = peerSubjects[call[1]!]!;
  const what = call[2]!;
  const status = /^HTTP (\d{3})/.exec(what)?.[1];
  const words =
    status === '429'
      ? `${who} asked the bridge to slow down.`
      : status === '401' || status === '403'
        ? `${who} refused the key.`
        : status === '404'
          ? `${who} did not find what the bridge asked for.`
          : status !== undefined
            ? `${who} answered with an error.`
            : /^no answer/.test(what)
              ? `${who} did not answer in time.`
              : /not JSON/.test(what)
                ? `${who} answered with something the bridge cannot read.`
                : `${who} could not be reached.`;
  return { words, details: raw };
}

/** OBS's last connection error (obs-websocket's words, a socket's code) as the operator reads it. */
export function obsConnectionWords(raw: string): string {
  if (/authenticat|password|4009/i.test(raw))
    return 'OBS refused the password: set the one OBS shows under Tools → WebSocket Server Settings.';
  if (/ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|could not connect/i.test(raw))
    return 'OBS is not answering at its address: is OBS running, with its WebSocket server on?';
  if (/closed/i.test(raw)) return 'The connection to OBS closed; the bridge connects again by itself.';
  return 'The bridge could not keep a connection to OBS; it tries again by itself.';
}
