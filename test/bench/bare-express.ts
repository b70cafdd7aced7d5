import type { AddressInfo } from 'node:net';
import express from 'express';

/** The baseline: a bare Express JSON handler on the same machine, in the same run. */
export async function startBareExpress(): Promise<{ url: string; stop(): Promise<void> }> {
  const app = express();
  app.use(express.json({ limit: '1mb' }));
  app.post('/webhook', (req, res) => {
    res.json({ success: true, received: true, echo: req.body as unknown });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhook`,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
