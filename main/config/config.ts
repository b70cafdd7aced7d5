import { randomBytes } from 'node:crypto';
import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import envPaths from 'env-paths';
import { z } from 'zod';
import type { ConfigIssue, ConfigSource } from './config-types.js';
import { prepareDataDir } from './data-dir.js';
import { readPrivateText, writePrivateFile } from '../kernel/private-files.js';
import {
  configKeys,
  isInlineRouteTable,
  secretConfigKeys,
  type ConfigKey,
} from '../../shared/api/settings.js';
import {
  peerSecretKeyNames,
  secretOriginsAtLoad,
  type SecretOrigins,
  type SecretPeer,
} from './secret-origins.js';
import {
  defaultPublishRoutes,
  publishRouteTable,
  readPublishRoutesSource,
  type PublishRouteTable,
} from './publish-routes.js';

/** Encrypts secrets at rest in the config file (Electron safeStorage in the desktop app). */
export interface SecretStore {
  seal(plain: string): string;
  open(sealed: string): string;
}

export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`invalid configuration:\n${issues.join('\n')}`);
    this.name = 'ConfigError';
  }
}

export type { ConfigIssue, ConfigSource } from './config-types.js';

/** `KEY: message`, the line start-up prints for an issue. */
export const configIssueLine = (issue: ConfigIssue): string => `${issue.field}: ${issue.message}`;

function zodConfigIssues(issues: readonly z.core.$ZodIssue[], root?: string): ConfigIssue[] {
  return issues.map((issue) => ({
    field: [root, ...issue.path.map(String)].filter(Boolean).join('.'),
    rule: issue.code,
    message: issue.message,
  }));
}

export type PostsvcPlan = 'free' | 'premium' | 'business';

export interface BridgeConfig {
  host: string;
  port: number;
  dataDir: string;
  /** BRIDGE_DATA_DIR as given, when it led through a symbolic link to `dataDir` (logged at start). */
  dataDirLinkedFrom: string | null;
  configPath: string;
  apiKey: string;
  corsOrigins: string[];
  sandbox: boolean;
  /** Peers' secrets are left out when their key is refused (`refusedKeys`). */
  crm: { url: string; apiKey?: string; username?: string; password?: string } | null;
  /** EspoCRM webhook secret keys; when any is set, webhooks must be signed. */
  webhookSecrets: string[];
  postsvc: { url: string; apiKey?: string; plan: PostsvcPlan } | null;
  /** The provider plan chosen (POSTSVC_PLAN), also when the sandbox stands in for the provider. */
  postsvcPlan: PostsvcPlan;
  gateway: { url: string; apiKey?: string } | null;
  /**
   * The OBS websocket the recorder filename is applied to (DESIGN §5.5); null: held only.
   * `simulated`: the sandbox's own OBS, which the sandbox points the recorder at (DESIGN §8).
   */
  recorder: { url: string; password?: string; simulated?: true } | null;
  /** RECORDER_OBS_URL=none: no recorder, not even the sandbox's simulated OBS. */
  recorderOff: boolean;
  automation: { url: string; authHeader?: { name: string; value: string } } | null;
  collectIntervalHours: number;
  /** CRM catch-up interval (DESIGN §6.9); 0: off, also at start. */
  crmCatchUpMinutes: number;
  /** How late a missed post may still go out (DESIGN §6.9). */
  latePostGraceMinutes: number;
  /**
   * Proxy hops whose X-Forwarded-For is trusted, only on connections from loopback (a tunnel such
   * as cloudflared or ngrok; DESIGN §3). 0: the socket's address is the client.
   */
  trustProxyHops: number;
  /** FFMPEG_PATH / FFPROBE_PATH (DESIGN §6.10); null: looked for on PATH, then the npm-shipped FFmpeg. */
  ffmpegPath: string | null;
  ffprobePath: string | null;
  /** SANDBOX_TAKE_FILES: the simulated OBS writes a small real file per take when FFmpeg is there (DESIGN §8). */
  sandboxTakeFiles: boolean;
  publishRoutes: PublishRouteTable;
  /**
   * Peers whose saved secret belongs to another origin than their address in force (the environment
   * points them elsewhere): the origin it was saved for. Nothing secret is sent to them (issue #35.3).
   */
  refusedKeys: Partial<Record<SecretPeer, string>>;
  /** What loading did that the log should say once (an earlier release's secrets bound to their origins). */
  loadNotes: string[];
  sources: Record<ConfigKey, ConfigSource>;
  /** Raw values in force, for the Settings page (masked there). */
  values: Partial<Record<ConfigKey, string>>;
}

export const configDescriptions: Record<ConfigKey, string> = {
  BRIDGE_HOST: 'listen address (127.0.0.1; 0.0.0.0 for the LAN)',
  BRIDGE_PORT: 'listen port',
  BRIDGE_DATA_DIR: 'folder for the SQLite file, config and logs',
  BRIDGE_API_KEY: 'key for the bridge API (generated on first run)',
  BRIDGE_CORS_ORIGINS: 'comma-separated browser origins allowed to call the API',
  BRIDGE_SANDBOX: '1: start the simulated peers and use them (default when no CRM_URL)',
  CRM_URL: 'EspoCRM base URL, without /api/v1',
  CRM_API_KEY: 'EspoCRM API user key (X-Api-Key)',
  CRM_USERNAME: 'EspoCRM user for Basic auth instead of the key',
  CRM_PASSWORD: 'EspoCRM password for Basic auth',
  CRM_WEBHOOK_SECRETS: 'comma-separated EspoCRM webhook secret keys',
  POSTSVC_URL: 'posting provider base URL',
  POSTSVC_API_KEY: 'posting provider key',
  POSTSVC_PLAN: 'provider plan: free, premium or business (daily post quota)',
  GATEWAY_URL: 'publishing gateway base URL',
  GATEWAY_API_KEY: 'publishing gateway key',
  AUTOMATION_URL: 'n8n base URL',
  AUTOMATION_AUTH_HEADER: 'optional "Name: value" header sent to n8n',
  COLLECT_INTERVAL_HOURS: 'analytics collection interval in hours (1 to 168)',
  PUBLISH_ROUTES: 'publishing route table: JSON or a path to a JSON file',
  CRM_CATCHUP_MINUTES: 'CRM catch-up interval in minutes (0 = off, also at start)',
  LATE_POST_GRACE_MINUTES: 'how many minutes late a missed post may still go out',
  RECORDER_OBS_URL:
    'OBS websocket of the recorder (ws://host:4455); none: the filename is only held (the sandbox uses its simulated OBS)',
  RECORDER_OBS_PASSWORD: "the OBS websocket's password (Tools → WebSocket Server Settings)",
  BRIDGE_TRUST_PROXY:
    'proxy hops (a tunnel on this machine: cloudflared, ngrok) whose X-Forwarded-For is trusted on loopback connections; 0 = none',
  FFMPEG_PATH:
    'FFmpeg for clip renders (full path); default: ffmpeg on PATH, else the one shipped with the app',
  FFPROBE_PATH: 'ffprobe for reading takes (full path); default: ffprobe on PATH, else FFmpeg itself',
  SANDBOX_TAKE_FILES:
    'sandbox only: 1 (default) the simulated OBS writes a small real video file for each take when FFmpeg is there; 0: none (the tests, unless one asks)',
};

const SEALED_PREFIX = 'sealed:';

const optionalText = z.string().trim().min(1).optional();
const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .transform((value) => value.replace(/\/+$/, ''));
const flag = z
  .enum(['0', '1', 'true', 'false', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

/** A program the bridge will run (FFmpeg, ffprobe): named by its full path, there, and executable. */
const programPath = z
  .string()
  .trim()
  .min(1)
  .superRefine((value, ctx) => {
    const problem = programProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .optional();

function programProblem(file: string): string | null {
  if (!path.isAbsolute(file)) return `must be the full path of the program (${file} is not one)`;
  try {
    if (statSync(file).isDirectory()) return `${file} is a folder, not the program`;
  } catch {
    return `${file} is not there`;
  }
  if (process.platform === 'win32') return null;
  try {
    accessSync(file, constants.X_OK);
    return null;
  } catch {
    return `${file} is not a program the bridge may run`;
  }
}

const rawConfigSchema = z.object({
  BRIDGE_HOST: z.string().trim().min(1).default('127.0.0.1'),
  BRIDGE_PORT: z.coerce.number().int('must be a whole number').min(0).max(65535).default(4100),
  BRIDGE_DATA_DIR: optionalText,
  // Sent in a header, where a browser refuses anything but ASCII: such a key locked everyone out.
  // The character rule stops there, so a short non-ASCII key gets one line, not two (issue #35.7).
  BRIDGE_API_KEY: z
    .string()
    .regex(/^[\x21-\x7e]*$/, {
      error:
        'may hold only visible ASCII characters (letters, digits and the punctuation ! to ~), no spaces: it is sent in an HTTP header',
      abort: true,
    })
    .min(16, 'must be at least 16 characters')
    .optional(),
  BRIDGE_CORS_ORIGINS: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.url({ protocol: /^https?$/, error: 'each origin must be an http(s) origin' }))),
  BRIDGE_SANDBOX: flag.optional(),
  CRM_URL: httpUrl.optional(),
  CRM_API_KEY: optionalText,
  CRM_USERNAME: optionalText,
  CRM_PASSWORD: optionalText,
  CRM_WEBHOOK_SECRETS: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  POSTSVC_URL: httpUrl.optional(),
  POSTSVC_API_KEY: optionalText,
  POSTSVC_PLAN: z.enum(['free', 'premium', 'business']).default('free'),
  GATEWAY_URL: httpUrl.optional(),
  GATEWAY_API_KEY: optionalText,
  AUTOMATION_URL: httpUrl.optional(),
  AUTOMATION_AUTH_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]+:\s*\S.*$/, 'must look like "Name: value"')
    .optional(),
  // Each collection reads every platform and every published post from the provider (and spends
  // its rate limit): more often than hourly is a typo (0.5, "30" meant as minutes), not a choice.
  COLLECT_INTERVAL_HOURS: z.coerce
    .number({ error: 'must be a number of hours' })
    .min(1, 'must be at least 1 hour')
    .max(24 * 7, 'must be at most 168 hours (one week)')
    .default(6),
  PUBLISH_ROUTES: optionalText,
  CRM_CATCHUP_MINUTES: z.coerce
    .number({ error: 'must be a number of minutes' })
    .int('must be a whole number of minutes')
    .min(0, 'must be 0 (off) or more')
    .max(24 * 60, 'must be at most 1440 minutes (one day)')
    .default(10),
  LATE_POST_GRACE_MINUTES: z.coerce
    .number({ error: 'must be a number of minutes' })
    .int('must be a whole number of minutes')
    .min(0, 'must be 0 or more')
    .max(24 * 60, 'must be at most 1440 minutes (one day)')
    .default(15),
  RECORDER_OBS_URL: z
    .union([
      z.literal('none'),
      z.url({ protocol: /^wss?$/, error: 'must be a ws:// or wss:// URL (OBS: ws://host:4455), or none' }),
    ])
    .optional(),
  RECORDER_OBS_PASSWORD: optionalText,
  // A tunnel is one hop; a tunnel behind a local reverse proxy two. More is no setup we know.
  BRIDGE_TRUST_PROXY: z.coerce
    .number({ error: 'must be a number of proxy hops' })
    .int('must be a whole number of proxy hops')
    .min(0, 'must be 0 (no proxy) or more')
    .max(5, 'must be at most 5 proxy hops')
    .default(0),
  FFMPEG_PATH: programPath,
  FFPROBE_PATH: programPath,
  SANDBOX_TAKE_FILES: flag.default(true),
});

export function defaultDataDir(): string {
  return envPaths('studio-bridge', { suffix: '' }).data;
}

export interface LoadConfigOptions {
  env?: NodeJS.ProcessEnv;
  secretStore?: SecretStore;
}

/**
 * Env wins over `<dataDir>/config.json`. Every bad key is reported (one line each), not just
 * the first; a missing API key is generated once and stored in the config file.
 */
export function loadConfig({ env = process.env, secretStore }: LoadConfigOptions = {}): BridgeConfig {
  // Resolved once (a link to another disk is fine), checked before anything in it is read (issue #35.5).
  const prepared = prepareDataDir(path.resolve(env.BRIDGE_DATA_DIR?.trim() || defaultDataDir()));
  const dataDir = prepared.dir;
  if (prepared.problem)
    throw new ConfigError([`BRIDGE_DATA_DIR: ${dataDir} cannot be used: ${prepared.problem}`]);
  const configPath = path.join(dataDir, 'config.json');
  const file = readConfigFile(configPath, secretStore);

  const merged: Partial<Record<ConfigKey, string>> = {};
  const sources = {} as Record<ConfigKey, ConfigSource>;
  for (const key of configKeys) {
    const fromEnv = env[key];
    if (fromEnv !== undefined && fromEnv !== '') {
      merged[key] = fromEnv;
      sources[key] = 'env';
    } else if (file.values[key] !== undefined) {
      merged[key] = file.values[key];
      sources[key] = 'file';
    } else {
      sources[key] = 'default';
    }
  }

  const parsed = rawConfigSchema.safeParse(merged);
  const issues = parsed.success ? [] : zodConfigIssues(parsed.error.issues);
  const publishRoutes = parsePublishRoutes(merged.PUBLISH_ROUTES, issues);
  if (!parsed.success || issues.length > 0) throw new ConfigError(issues.map(configIssueLine));
  const raw = parsed.data;

  if (raw.CRM_URL && !raw.CRM_API_KEY && !(raw.CRM_USERNAME && raw.CRM_PASSWORD)) {
    issues.push({
      field: 'CRM_API_KEY',
      rule: 'required',
      message: 'required with CRM_URL (or CRM_USERNAME and CRM_PASSWORD)',
    });
  }
  if (raw.POSTSVC_URL && !raw.POSTSVC_API_KEY) {
    issues.push({ field: 'POSTSVC_API_KEY', rule: 'required', message: 'required with POSTSVC_URL' });
  }
  if (issues.length > 0) throw new ConfigError(issues.map(configIssueLine));

  const origins = secretOriginsAtLoad({ values: merged, sources }, file);
  let apiKey = raw.BRIDGE_API_KEY;
  const fileValues = { ...file.values };
  if (!apiKey) {
    apiKey = randomBytes(24).toString('base64url');
    fileValues.BRIDGE_API_KEY = apiKey;
    sources.BRIDGE_API_KEY = 'generated';
    merged.BRIDGE_API_KEY = apiKey;
  }
  const loadNotes = origins.boundNow.length > 0 ? [earlierReleaseNote(origins.boundNow)] : [];
  const updated: ConfigFile = { values: fileValues, secretOrigins: origins.stored };
  if (sources.BRIDGE_API_KEY === 'generated') writeConfigFile(configPath, updated, secretStore);
  else if (origins.boundNow.length > 0) {
    // A config.json the operator keeps read-only still starts: the bindings hold for this run.
    try {
      writeConfigFile(configPath, updated, secretStore);
    } catch (error) {
      loadNotes.push(
        `${configPath} could not be written (${(error as Error).message}): the secrets are bound for this run only, and again at the next start`,
      );
    }
  }
  const refused = origins.refused;

  const authHeader = raw.AUTOMATION_AUTH_HEADER?.match(/^([^:]+):\s*(.*)$/);
  return {
    host: raw.BRIDGE_HOST,
    port: raw.BRIDGE_PORT,
    dataDir,
    dataDirLinkedFrom: prepared.linkedFrom,
    configPath,
    apiKey,
    corsOrigins: raw.BRIDGE_CORS_ORIGINS.map((origin) => new URL(origin).origin),
    sandbox: raw.BRIDGE_SANDBOX ?? !raw.CRM_URL,
    crm: raw.CRM_URL
      ? {
          url: raw.CRM_URL,
          ...(refused.crm
            ? {}
            : { apiKey: raw.CRM_API_KEY, username: raw.CRM_USERNAME, password: raw.CRM_PASSWORD }),
        }
      : null,
    webhookSecrets: raw.CRM_WEBHOOK_SECRETS,
    postsvcPlan: raw.POSTSVC_PLAN,
    postsvc:
      raw.POSTSVC_URL && raw.POSTSVC_API_KEY
        ? {
            url: raw.POSTSVC_URL,
            ...(refused.postsvc ? {} : { apiKey: raw.POSTSVC_API_KEY }),
            plan: raw.POSTSVC_PLAN,
          }
        : null,
    gateway: raw.GATEWAY_URL
      ? { url: raw.GATEWAY_URL, ...(refused.gateway ? {} : { apiKey: raw.GATEWAY_API_KEY }) }
      : null,
    recorder:
      raw.RECORDER_OBS_URL && raw.RECORDER_OBS_URL !== 'none'
        ? {
            url: raw.RECORDER_OBS_URL,
            ...(raw.RECORDER_OBS_PASSWORD && !refused.recorder
              ? { password: raw.RECORDER_OBS_PASSWORD }
              : {}),
          }
        : null,
    recorderOff: raw.RECORDER_OBS_URL === 'none',
    automation: raw.AUTOMATION_URL
      ? {
          url: raw.AUTOMATION_URL,
          ...(authHeader?.[1] && authHeader[2] && !refused.automation
            ? { authHeader: { name: authHeader[1].trim(), value: authHeader[2] } }
            : {}),
        }
      : null,
    collectIntervalHours: raw.COLLECT_INTERVAL_HOURS,
    crmCatchUpMinutes: raw.CRM_CATCHUP_MINUTES,
    latePostGraceMinutes: raw.LATE_POST_GRACE_MINUTES,
    trustProxyHops: raw.BRIDGE_TRUST_PROXY,
    ffmpegPath: raw.FFMPEG_PATH ?? null,
    ffprobePath: raw.FFPROBE_PATH ?? null,
    sandboxTakeFiles: raw.SANDBOX_TAKE_FILES,
    publishRoutes,
    refusedKeys: refused,
    loadNotes,
    sources,
    values: merged,
  };
}

function earlierReleaseNote(bound: { key: string; origin: string }[]): string {
  const list = bound.map(({ key, origin }) => `${key} for ${origin}`).join(', ');
  return `config.json from an earlier release: its secrets are bound to the address saved beside them (${list}); each is sent only there from now on`;
}

/**
 * Inline JSON is checked key by key. A file is judged as a whole: a message never quotes what the
 * file holds (its bytes, its key names) nor says whether it exists (issue #12.1).
 */
function parsePublishRoutes(value: string | undefined, issues: ConfigIssue[]): PublishRouteTable {
  if (value === undefined) return defaultPublishRoutes;
  const inline = isInlineRouteTable(value);
  let json: unknown;
  try {
    json = readPublishRoutesSource(value);
  } catch (error) {
    issues.push(
      inline
        ? { field: 'PUBLISH_ROUTES', rule: 'json', message: `not valid JSON (${(error as Error).message})` }
        : {
            field: 'PUBLISH_ROUTES',
            rule: 'route-table',
            message: `${value.trim()} is not a valid route table`,
          },
    );
    return defaultPublishRoutes;
  }
  const result = publishRouteTable.safeParse(json);
  if (!result.success) {
    if (!inline)
      issues.push({
        field: 'PUBLISH_ROUTES',
        rule: 'route-table',
        message: `${value.trim()} is not a valid route table`,
      });
    else issues.push(...zodConfigIssues(result.error.issues, 'PUBLISH_ROUTES'));
    return defaultPublishRoutes;
  }
  return result.data;
}

/** config.json: the values Settings writes, and the origin each saved peer secret belongs to. */
export interface ConfigFile {
  values: Partial<Record<ConfigKey, string>>;
  secretOrigins: SecretOrigins;
}

const fileShape = z.looseObject({
  secretOrigins: z.partialRecord(z.enum(peerSecretKeyNames), z.string()).optional(),
});
const fileValuesShape = z.partialRecord(z.enum(configKeys), z.string());

export function readConfigFile(configPath: string, secretStore?: SecretStore): ConfigFile {
  // Never through a link (issue #35.5): a link here is refused in one line naming it.
  const text = readPrivateText(configPath);
  if (text === null) return { values: {}, secretOrigins: {} };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError([`${configPath}: not valid JSON (${(error as Error).message})`]);
  }
  const envelope = fileShape.safeParse(json);
  const { secretOrigins = {}, ...rest } = envelope.success ? envelope.data : {};
  const shape = envelope.success ? fileValuesShape.safeParse(rest) : envelope;
  if (!shape.success) {
    throw new ConfigError(
      shape.error.issues.map((i) => `${configPath}: ${i.path.join('.') || '(root)'}: ${i.message}`),
    );
  }
  const values: Partial<Record<ConfigKey, string>> = {};
  for (const [key, value] of Object.entries(shape.data) as [ConfigKey, string][]) {
    values[key] =
      value.startsWith(SEALED_PREFIX) && secretStore
        ? secretStore.open(value.slice(SEALED_PREFIX.length))
        : value;
  }
  return { values, secretOrigins };
}

/** Written with mode 0600; secrets sealed when a SecretStore is given (desktop). */
export function writeConfigFile(configPath: string, file: ConfigFile, secretStore?: SecretStore): void {
  mkdirSync(path.dirname(configPath), { recursive: true, mode: 0o700 });
  const stored: Partial<Record<ConfigKey, string>> = {};
  for (const key of configKeys) {
    const value = file.values[key];
    if (value === undefined || value === '') continue;
    stored[key] = secretStore && secretConfigKeys.has(key) ? SEALED_PREFIX + secretStore.seal(value) : value;
  }
  // A binding goes with its secret: none is kept for a secret no longer saved.
  const secretOrigins: SecretOrigins = {};
  for (const key of peerSecretKeyNames) {
    const origin = file.secretOrigins[key];
    if (origin !== undefined && stored[key] !== undefined) secretOrigins[key] = origin;
  }
  const document = Object.keys(secretOrigins).length > 0 ? { ...stored, secretOrigins } : stored;
  // Replaced whole (0600), never written through a link nor chmodding what one points to (issue #35.5).
  writePrivateFile(configPath, `${JSON.stringify(document, null, 2)}\n`);
}

/** What Settings shows for a secret whose ending would give too much away (a short value, a list). */
export const SECRET_MASK = '••••••••';

/**
 * `••••1234` (DESIGN §3): enough to recognise a key, not to use it. Only for a value of 16
 * characters or more, where 4 are at most a quarter of it; a shorter one gets the fixed mask.
 */
export function maskSecret(value: string): string {
  return value.length >= 16 ? `••••${value.slice(-4)}` : SECRET_MASK;
}

/** Validates a candidate set of file values the way start-up would (env ignored). */
export function validateConfigValues(values: Partial<Record<ConfigKey, string>>): ConfigIssue[] {
  const parsed = rawConfigSchema.safeParse(values);
  const issues = parsed.success ? [] : zodConfigIssues(parsed.error.issues);
  parsePublishRoutes(values.PUBLISH_ROUTES, issues);
  return issues;
}
