import { connect, type Socket } from 'node:net';

/**
 * HTTP/1.1 spoken by hand over a raw socket: for what fetch cannot do (send headers and stall
 * the body, stop reading a stream, hold a connection open without a request).
 */
export interface RawConnection {
  readonly socket: Socket;
  /** Everything received so far, as latin1 text. */
  received(): string;
  /** Resolves with the status and headers of the first response (rejects if the socket closes first). */
  responseHead(): Promise<{ status: number; headers: Record<string, string> }>;
  /** Resolves when the socket has closed, for whatever reason (FIN, reset, timeout). */
  closed(): Promise<void>;
  isClosed(): boolean;
}

export async function openRaw(
  baseUrl: string,
  options: { localAddress?: string } = {},
): Promise<RawConnection> {
  const url = new URL(baseUrl);
  const socket = connect({
    host: url.hostname,
    port: Number(url.port),
    ...(options.localAddress ? { localAddress: options.localAddress } : {}),
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let text = '';
  let isClosed = false;
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      isClosed = true;
      resolve();
    }),
  );
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  // A reset is one way the bridge closes a connection: it is an outcome here, not a failure.
  socket.on('error', () => undefined);

  return {
    socket,
    received: () => text,
    closed: () => closed,
    isClosed: () => isClosed,
    responseHead: () =>
      new Promise((resolve, reject) => {
        const check = () => {
          const end = text.indexOf('\r\n\r\n');
          if (end < 0) return false;
          const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
          const headers: Record<string, string> = {};
          for (const line of lines) {
            const colon = line.indexOf(':');
            headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
          }
          resolve({ status: Number(statusLine.split(' ')[1]), headers });
          return true;
        };
        if (check()) return;
        const onData = () => {
          if (check()) cleanup();
        };
        const onClose = () => {
          cleanup();
          if (!check()) reject(new Error(`connection closed before a response; got ${JSON.stringify(text)}`));
        };
        const cleanup = () => {
          socket.off('data', onData);
          socket.off('close', onClose);
        };
        socket.on('data', onData);
        socket.on('close', onClose);
      }),
  };
}

/** A request head (no body) for a raw socket. */
export function requestHead(
  method: string,
  path: string,
  headers: Record<string, string | number> = {},
): string {
  const lines = Object.entries({ host: '127.0.0.1', ...headers }).map(([name, value]) => `${name}: ${value}`);
  return `${method} ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}
