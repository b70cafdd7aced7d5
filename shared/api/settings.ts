import { z } from 'zod';
import { defineContract } from './contract.js';

/** Config names of DESIGN §3: a contract, external tests use them. */
export const configKeys = [
  'BRIDGE_HOST',
  'BRIDGE_PORT',
  'BRIDGE_DATA_DIR',
  'BRIDGE_API_KEY',
  'BRIDGE_CORS_ORIGINS',
  'BRIDGE_SANDBOX',
  'CRM_URL',
  'CRM_API_KEY',
  'CRM_USERNAME',
  'CRM_PASSWORD',
  'CRM_WEBHOOK_SECRETS',
  'POSTSVC_URL',
  'POSTSVC_API_KEY',
  'POSTSVC_PLAN',
  'GATEWAY_URL',
  'GATEWAY_API_KEY',
  'AUTOMATION_URL',
  'AUTOMATION_AUTH_HEADER',
  'COLLECT_INTERVAL_HOURS',
  'PUBLISH_ROUTES',
  'CRM_CATCHUP_MINUTES',
  'LATE_POST_GRACE_MINUTES',
  'RECORDER_OBS_URL',
  'RECORDER_OBS_PASSWORD',
  'BRIDGE_TRUST_PROXY',
  'FFMPEG_PATH',
  'FFPROBE_PATH',
  'SANDBOX_TAKE_FILES',
] as const;
export type ConfigKey = (typeof configKeys)[number];

/** Values never logged nor returned in full (masked `••••1234`). */
export const secretConfigKeys: ReadonlySet<ConfigKey> = new Set<ConfigKey>([
  'BRIDGE_API_KEY',
  'CRM_API_KEY',
  'CRM_PASSWORD',
  'CRM_WEBHOOK_SECRETS',
  'POSTSVC_API_KEY',
  'GATEWAY_API_KEY',
  'AUTOMATION_AUTH_HEADER',
  'RECORDER_OBS_PASSWORD',
]);

/**
 * Programs the bridge runs (FFmpeg, ffprobe): through the API, anyone holding the key could have it
 * run any program of the host, so only the environment and the config file set them.
 */
export const programPathKeys = ['FFMPEG_PATH', 'FFPROBE_PATH'] as const satisfies readonly ConfigKey[];

/**
 * PUBLISH_ROUTES is inline JSON when it starts with `{`, else a path to a JSON file. A path is
 * taken only from the environment or the config file the operator edits: through the API it
 * would have the bridge read any file on the host (issue #12.1).
 */
export function isInlineRouteTable(value: string): boolean {
  return value.trim().startsWith('{');
}

export const settingEntry = z.object({
  key: z.enum(configKeys),
  /** Masked for secrets (a fixed mask, or `••••1234` for a long single value); null when unset. */
  value: z.string().nullable(),
  secret: z.boolean(),
  /** Where the value in force comes from: env wins over the config file. */
  source: z.enum(['env', 'file', 'default', 'generated']),
  description: z.string(),
  /** False when Settings cannot change it (set by the environment, or a route-table path in the file). */
  editable: z.boolean(),
  /** A sentence for the operator: how many secrets a list holds, where to change a read-only value, what the sandbox does instead. */
  note: z.string().nullable(),
  /**
   * Saved to the config file but not yet in force (it takes effect after a restart): the value
   * saved, masked like `value` (null: removed from the file, the default applies). Null when
   * the file holds what is running.
   */
  pending: z.object({ value: z.string().nullable() }).nullable(),
});
export type SettingEntry = z.infer<typeof settingEntry>;

export const getSettings = defineContract({
  method: 'get',
  path: '/api/settings',
  tag: 'settings',
  summary: 'Configuration in force (secrets masked), where each value comes from, and the config file path.',
  auth: 'key',
  response: z.object({
    success: z.literal(true),
    configPath: z.string(),
    dataDir: z.string(),
    sandbox: z.boolean(),
    /** Sandbox mode: the key the simulated peers' `/__sandbox/*` control routes require (header `X-Sandbox-Key`); null with real peers. */
    sandboxControlKey: z.string().nullable(),
    settings: z.array(settingEntry),
  }),
});

export const updateSettings = defineContract({
  method: 'put',
  path: '/api/settings',
  tag: 'settings',
  summary:
    'Write values to the config file (empty string removes a key). Validated like start-up config; takes effect after a restart. Keys set by env cannot be changed here; PUBLISH_ROUTES only as inline JSON, and not when the config file holds a path.',
  auth: 'key',
  body: z.object({
    values: z.partialRecord(z.enum(configKeys), z.string().max(20_000)).superRefine((values, ctx) => {
      for (const key of programPathKeys) {
        if (values[key] === undefined) continue;
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message:
            'names a program the bridge runs: set it in the environment or in the config file, not through the API',
        });
      }
      const routes = values.PUBLISH_ROUTES;
      if (routes === undefined || routes === '' || isInlineRouteTable(routes)) return;
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLISH_ROUTES'],
        message:
          'only a JSON route table (starting with {) can be set here; a file path can be set in the environment or in the config file',
      });
    }),
  }),
  response: z.object({
    success: z.literal(true),
    restartRequired: z.boolean(),
    written: z.array(z.string()),
  }),
});

// ---------- Test connection (issue #41.1) ----------

/** The peers Settings can test: the names of /health and of the error envelope's `peer.name`. */
export const testablePeers = ['crm', 'postsvc', 'gateway', 'automation', 'obs'] as const;
export type TestablePeer = (typeof testablePeers)[number];

const httpAddress = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .max(2_000)
  .optional()
  .describe('The address to test; left out: the one in force.');
// The pattern states the protocol rule in /openapi.json (zod's protocol option does not reach it).
const obsAddress = z
  .url({ protocol: /^wss?$/, error: 'must be a ws:// or wss:// URL (OBS: ws://host:4455)' })
  .max(2_000)
  .meta({ pattern: '^wss?://[a-z][a-z0-9-]{0,30}(\\.[a-z][a-z0-9-]{0,30}){0,3}(:[1-9][0-9]{0,3})?$' })
  .optional()
  .describe('The OBS websocket to test; left out: the one in force.');
const secret = (what: string) =>
  z
    .string()
    .min(1)
    .max(2_000)
    .optional()
    .describe(
      `${what}, sent only to the address of this request; left out: the saved one, if it was saved for that address's origin.`,
    );

/**
 * What Test connection tries: a peer, and optionally an address and secrets not saved yet. A
 * saved secret goes only to the origin it was saved for (issue #35.3): an address elsewhere is
 * tested with the secrets of the same request, or with none.
 */
export const connectionTestRequest = z.discriminatedUnion('peer', [
  z.strictObject({
    peer: z.literal('crm'),
    url: httpAddress,
    apiKey: secret('The API user key'),
    username: z.string().min(1).max(200).optional().describe('Basic auth user, instead of the key.'),
    password: secret('The Basic auth password'),
  }),
  z.strictObject({ peer: z.literal('postsvc'), url: httpAddress, apiKey: secret('The provider key') }),
  z.strictObject({ peer: z.literal('gateway'), url: httpAddress, apiKey: secret('The gateway key') }),
  z.strictObject({
    peer: z.literal('automation'),
    url: httpAddress,
    authHeader: z
      .string()
      .max(2_000)
      .regex(/^[A-Za-z0-9-]+:[ \t]*[^ \t].*$/, 'must look like "Name: value"')
      .optional()
      .describe('The "Name: value" header, sent only to the address of this request.'),
  }),
  z.strictObject({ peer: z.literal('obs'), url: obsAddress, password: secret('The OBS websocket password') }),
]);
export type ConnectionTestRequest = z.infer<typeof connectionTestRequest>;

/**
 * What the peer answered: `reachable`, or a peer failure's cause (the error envelope's words:
 * unreachable, no-answer, throttled, refused-key, failing, refused), `not-found` (nothing of the
 * peer's API at that address), `unreadable` (something answered, but not as this peer does),
 * `redirected` (the address sends elsewhere: not followed, `detail` says where), or `not-configured`
 * (no address in force and none given).
 */
export const connectionOutcomes = [
  'reachable',
  'unreachable',
  'no-answer',
  'throttled',
  'refused-key',
  'failing',
  'refused',
  'not-found',
  'unreadable',
  'redirected',
  'not-configured',
] as const;

export const connectionTestResult = z.object({
  success: z.literal(true),
  peer: z.enum(testablePeers),
  /** The address tested; null when there was none. */
  url: z.string().nullable(),
  outcome: z.enum(connectionOutcomes),
  /** How long the peer took to answer; null when it did not. */
  latencyMs: z.number().nullable(),
  /** The peer's HTTP status when it answered over HTTP (null: OBS, or no answer). */
  status: z.number().int().nullable(),
  /** Seconds the peer asked to wait (429). */
  retryAfterS: z.number().nullable(),
  /** Which credentials went along: given in the request, the saved ones, or none. */
  credentials: z.enum(['given', 'saved', 'none']),
  /** The origin the saved secret belongs to, when it was kept back because the address is elsewhere. */
  savedKeyFor: z.string().nullable(),
  /** What the peer said of itself or of the failure, in its words ("API user studio-bridge", OBS's close reason). */
  detail: z.string().nullable(),
});
export type ConnectionTestResult = z.infer<typeof connectionTestResult>;

export const testConnection = defineContract({
  method: 'post',
  path: '/api/settings/test-connection',
  tag: 'settings',
  summary:
    'Try a peer (CRM, posting provider, gateway, n8n, OBS) at its address in force or at one given, and say what it answered. Saves nothing; a saved secret goes only to the origin it was saved for. A peer that fails is the answer (200), not an error.',
  auth: 'key',
  body: connectionTestRequest,
  response: connectionTestResult,
});
