import { createHash } from 'node:crypto';
import { decode, encode } from '@msgpack/msgpack';

/**
 * The wire of obs-websocket 5 as OBS speaks it (its protocol.md and WebSocketServer_Protocol.cpp):
 * `{op, d}` messages, JSON as text frames or MessagePack as binary frames, by the subprotocol the
 * client asked for (obs-websocket-js in Node asks for `obswebsocket.msgpack`, a browser for JSON).
 */
export const OpCode = {
  Hello: 0,
  Identify: 1,
  Identified: 2,
  Reidentify: 3,
  Event: 5,
  Request: 6,
  RequestResponse: 7,
  RequestBatch: 8,
  RequestBatchResponse: 9,
} as const;

/** WebSocketCloseCode of obs-websocket 5 (the ones the simulator uses). */
export const CloseCode = {
  MessageDecodeError: 4002,
  MissingDataField: 4003,
  UnknownOpCode: 4006,
  NotIdentified: 4007,
  AlreadyIdentified: 4008,
  AuthenticationFailed: 4009,
  UnsupportedRpcVersion: 4010,
} as const;

/** RequestStatus codes of obs-websocket 5 (the ones the simulator answers with). */
export const RequestStatus = {
  Success: 100,
  UnknownRequestType: 204,
  MissingRequestField: 300,
  InvalidRequestFieldType: 401,
  OutputRunning: 500,
  OutputNotRunning: 501,
  OutputPaused: 502,
  OutputNotPaused: 503,
  ResourceNotFound: 600,
} as const;

/** EventSubscription.Outputs: RecordStateChanged is sent to sessions subscribed to it. */
export const OUTPUTS_INTENT = 64;
/** EventSubscription.All, what OBS assumes when Identify names no subscriptions. */
export const ALL_EVENTS = 4095;

export const subprotocols = { json: 'obswebsocket.json', msgpack: 'obswebsocket.msgpack' } as const;
export type Encoding = 'json' | 'msgpack';

/** The subprotocol OBS picks among those offered: MessagePack when asked for, else JSON. */
export function pickSubprotocol(offered: ReadonlySet<string>): string | false {
  if (offered.has(subprotocols.msgpack)) return subprotocols.msgpack;
  if (offered.has(subprotocols.json)) return subprotocols.json;
  return false;
}

export interface Message {
  op: number;
  d: Record<string, unknown>;
}

export function encodeMessage(message: Message, encoding: Encoding): Buffer | string {
  return encoding === 'msgpack' ? Buffer.from(encode(message)) : JSON.stringify(message);
}

/** The message, or null when the frame is not an `{op, d}` object in the session's encoding. */
export function decodeMessage(data: Buffer, isBinary: boolean, encoding: Encoding): Message | null {
  let value: unknown;
  try {
    value = encoding === 'msgpack' && isBinary ? decode(data) : JSON.parse(data.toString('utf8'));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { op, d } = value as { op?: unknown; d?: unknown };
  if (typeof op !== 'number' || typeof d !== 'object' || d === null) return null;
  return { op, d: d as Record<string, unknown> };
}

const sha256Base64 = (text: string) => createHash('sha256').update(text).digest('base64');

/** The string a client must send for `password`: base64(sha256(base64(sha256(password + salt)) + challenge)). */
export function authenticationString(password: string, salt: string, challenge: string): string {
  return sha256Base64(sha256Base64(password + salt) + challenge);
}
