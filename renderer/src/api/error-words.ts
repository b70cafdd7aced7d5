import type { ErrorCode } from '../../../shared/api/contract.js';
import type { ClientErrorCode } from './client.js';

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
