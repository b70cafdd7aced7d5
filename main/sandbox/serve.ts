/**
 * Runs the four simulated peers in their own process, for tests that drive them over
 * HTTP (`/__sandbox/*`) from elsewhere, e.g. end-to-end runs:
 *
 *   npx tsx main/sandbox/serve.ts [--empty]
 *
 * Prints one JSON line `{controlKey, crm:{url,apiKey}, postsvc:{...}, gateway:{...}, automation:{...}}`
 * (`controlKey`: what the `/__sandbox/*` routes require in `X-Sandbox-Key`)
 * and runs until SIGINT or SIGTERM. `--empty` skips the demo data.
 */
import { startSandboxPeers } from './index.js';

const peers = await startSandboxPeers({ seedDemoData: !process.argv.includes('--empty') });
const describe = (peer: { url: string; apiKey: string }) => ({ url: peer.url, apiKey: peer.apiKey });
process.stdout.write(
  `${JSON.stringify({
    controlKey: peers.controlKey,
    crm: { ...describe(peers.crm), username: peers.crm.username, password: peers.crm.password },
    postsvc: describe(peers.postsvc),
    gateway: describe(peers.gateway),
    automation: describe(peers.automation),
  })}\n`,
);

const shutDown = (): void => {
  void peers.stop().then(() => process.exit(0));
};
process.once('SIGINT', shutDown);
process.once('SIGTERM', shutDown);
