import { openRaw, requestHead, type RawConnection } from './raw-http.js';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  /** The JSON body, or its text when it is not JSON. */
  body: unknown;
}

/**
 * The answers received so far on a raw connection, in order (Content-Length bodies only, as the
 * bridge sends them). For a kept-alive socket that carried several requests.
 */
export function answersOn(connection: RawConnection): RawAnswer[] {
  const text = connection.received();
  const answers: RawAnswer[] = [];
  let at = 0;
  while (at < text.length) {
    const end = text.indexOf('\r\n\r\n', at);
    if (end < 0) break;
    const [statusLine = '', ...lines] = text.slice(at, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (text.length < end + 4 + length) break;
    const raw = Buffer.from(text.slice(end + 4, end + 4 + length), 'latin1').toString('utf8');
    let body: unknown = raw;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      // not JSON: keep the text
    }
    answers.push({ status: Number(statusLine.split(' ')[1]), headers, body });
    at = end + 4 + length;
  }
  return answers;
}

/**
 * One request over a new connection from `from` (a loopback alias: another client as the
 * bridge sees it), answered and closed. fetch cannot choose the address it connects from.
 */
export async function callFrom(
  baseUrl: string,
  from: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawAnswer> {
  const connection = await openRaw(baseUrl, { localAddress: from });
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  connection.socket.write(
    requestHead(method, path, {
      connection: 'close',
      ...(body ? { 'content-type': 'application/json', 'content-length': body.length } : {}),
      ...options.headers,
    }),
  );
  if (body) connection.socket.write(body);
  await connection.closed();
  const [answer] = answersOn(connection);
  if (!answer) throw new Error(`${method} ${path} from ${from}: no answer (${connection.received()})`);
  return answer;
}
