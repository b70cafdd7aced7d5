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
