import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  startSandboxAutomation,
  startSandboxCrm,
  startSandboxGateway,
  startSandboxObs,
  startSandboxPostsvc,
  type SandboxAutomation,
  type SandboxCrm,
  type SandboxGateway,
  type SandboxObs,
  type SandboxPostsvc,
} from '../../main/sandbox/index.js';

/**
 * What the tests of where a saved peer secret may go (issue #35.3) share: every simulated peer
 * with its secret, a second OBS with the same password, and hosts the secrets must never reach.
 */

export const OBS_PASSWORD = 'obs-password-for-the-studio';
export const N8N_HEADER = 'X-N8N-Key: n8n-header-secret-0123456789';

/** A host the saved keys must never reach: records every request and answers as told. */
export interface Elsewhere {
  url: string;
  requests: { url: string; headers: IncomingHttpHeaders }[];
  stop(): Promise<void>;
}

/** `answer` says what to answer a request for this URL (null: never answer); by default 200 `{}`. */
export async function startElsewhere(
  answer: (
    url: string,
  ) => { status: number; body?: string; headers?: Record<string, string> } | null = () => ({
    status: 200,
    body: '{}',
  }),
): Promise<Elsewhere> {
  const requests: Elsewhere['requests'] = [];
  const server: Server = createServer((request, response) => {
    requests.push({ url: request.url ?? '', headers: request.headers });
    const reply = answer(request.url ?? '');
    if (reply === null) return; // never answers
    response
      .writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers })
      .end(reply.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface SecretPeers {
  crm: SandboxCrm;
  postsvc: SandboxPostsvc;
  gateway: SandboxGateway;
  automation: SandboxAutomation;
  obs: SandboxObs;
  /** Another OBS with the same password: where OBS's saved password must not go. */
  otherObs: SandboxObs;
  /** Every peer's address and secret, as an operator saves them in Settings. */
  env(): Record<string, string>;
  /** The saved secrets found in what `host` was sent (as themselves or inside Basic auth). */
  secretsIn(host: Elsewhere): string[];
  stop(): Promise<void>;
}

/** Every simulated peer; the automation checks N8N_HEADER on its webhooks only when asked. */
export async function startSecretPeers(options: { automationChecksHeader: boolean }): Promise<SecretPeers> {
  const [crm, postsvc, gateway, automation, obs, otherObs] = await Promise.all([
    startSandboxCrm(),
    startSandboxPostsvc(),
    startSandboxGateway(),
    startSandboxAutomation(options.automationChecksHeader ? { authHeader: N8N_HEADER } : {}),
    startSandboxObs({ password: OBS_PASSWORD }),
    startSandboxObs({ password: OBS_PASSWORD }),
  ]);
  const secrets = () => [crm.apiKey, postsvc.apiKey, gateway.apiKey, N8N_HEADER.split(': ')[1]!];
  return {
    crm,
    postsvc,
    gateway,
    automation,
    obs,
    otherObs,
    env: () => ({
      CRM_URL: crm.url,
      CRM_API_KEY: crm.apiKey,
      POSTSVC_URL: postsvc.url,
      POSTSVC_API_KEY: postsvc.apiKey,
      GATEWAY_URL: gateway.url,
      GATEWAY_API_KEY: gateway.apiKey,
      AUTOMATION_URL: automation.url,
      AUTOMATION_AUTH_HEADER: N8N_HEADER,
      RECORDER_OBS_URL: obs.url,
      RECORDER_OBS_PASSWORD: OBS_PASSWORD,
    }),
    secretsIn: (host) =>
      host.requests.flatMap((request) =>
        Object.values(request.headers)
          .flat()
          .filter((value): value is string => typeof value === 'string')
          .filter((value) => secrets().some((secret) => value.includes(secret))),
      ),
    stop: async () => {
      await Promise.all([crm, postsvc, gateway, automation, obs, otherObs].map((peer) => peer.stop()));
    },
  };
}
