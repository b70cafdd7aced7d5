import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Express } from 'express';

/** One simulated peer's HTTP listener on loopback, on a port the OS picked. */
export interface PeerServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  readonly port: number;
  /** true: stop listening (clients get ECONNREFUSED) and drop open sockets; false: listen again on the same port. */
  refuseConnections(on: boolean): Promise<void>;
  close(): Promise<void>;
}

export async function listenOnLoopback(app: Express): Promise<PeerServer> {
  const server = createServer(app);
  // Open sockets, including keep-alive ones and requests a `hang` fault keeps waiting:
  // close() must not wait for them.
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  await listen(server, 0);
  const port = (server.address() as AddressInfo).port;
  let closed = false;

  const shutDown = async (): Promise<void> => {
    if (!server.listening) return;
    const done = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await done;
  };

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    async refuseConnections(on) {
      if (closed) return;
      if (on) await shutDown();
      else if (!server.listening) await listen(server, port);
    },
    async close() {
      closed = true;
      await shutDown();
    },
  };
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      resolve();
    });
  });
}
