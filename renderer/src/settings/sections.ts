import type { ConfigKey, TestablePeer } from '../../../shared/api/settings.js';

/** A setting as the operator reads it: its label in words; the config name stays as small print. */
export interface FieldWords {
  key: ConfigKey;
  label: string;
  /** A line under the field: what it does, in words. */
  hint?: string;
}

export interface PeerSectionWords {
  /** The address fragment: `#/settings?section=crm`. */
  id: TestablePeer;
  title: string;
  /** One line: what the bridge uses the peer for. */
  purpose: string;
  fields: readonly FieldWords[];
  /** The fields Test connection can try at another address, with their labels. */
  testSecrets: readonly { field: 'apiKey' | 'username' | 'password' | 'authHeader'; label: string }[];
}

/** One section per peer (issue #41.1), in the order a new studio connects them. */
export const peerSections: readonly PeerSectionWords[] = [
  {
    id: 'crm',
    title: 'CRM (EspoCRM)',
    purpose: 'Guests, episodes and social posts come from it; the bridge writes results back.',
    fields: [
      { key: 'CRM_URL', label: 'CRM address', hint: 'The EspoCRM address, without /api/v1.' },
      { key: 'CRM_API_KEY', label: 'API key', hint: 'The API user’s key (Administration → API Users).' },
      { key: 'CRM_USERNAME', label: 'User name', hint: 'Instead of the API key: a user and password.' },
      { key: 'CRM_PASSWORD', label: 'Password', hint: 'With the user name, instead of the API key.' },
      {
        key: 'CRM_WEBHOOK_SECRETS',
        label: 'Webhook secrets',
        hint: 'The secret keys of the CRM’s webhooks, comma-separated: signed webhooks only.',
      },
      {
        key: 'CRM_CATCHUP_MINUTES',
        label: 'Catch up every (minutes)',
        hint: 'How often the bridge reads what changed in the CRM; 0 turns it off.',
      },
    ],
    testSecrets: [
      { field: 'apiKey', label: 'API key for this address' },
      { field: 'username', label: 'User name for this address' },
      { field: 'password', label: 'Password for this address' },
    ],
  },
  {
    id: 'postsvc',
    title: 'Posting provider',
    purpose: 'Posts go out through it, and their numbers come back.',
    fields: [
      { key: 'POSTSVC_URL', label: 'Provider address' },
      { key: 'POSTSVC_API_KEY', label: 'API key' },
      { key: 'POSTSVC_PLAN', label: 'Plan', hint: 'free, premium or business: the daily post quota.' },
      { key: 'LATE_POST_GRACE_MINUTES', label: 'A missed post may still go out within (minutes)' },
      { key: 'COLLECT_INTERVAL_HOURS', label: 'Collect analytics every (hours)' },
    ],
    testSecrets: [{ field: 'apiKey', label: 'API key for this address' }],
  },
  {
    id: 'gateway',
    title: 'Publishing gateway and live host',
    purpose: 'Live broadcasts are created and ended through it; uploads go out by its routes.',
    fields: [
      { key: 'GATEWAY_URL', label: 'Gateway address' },
      { key: 'GATEWAY_API_KEY', label: 'API key' },
      {
        key: 'PUBLISH_ROUTES',
        label: 'Publishing routes',
        hint: 'A JSON table of the gateway path per platform and kind.',
      },
    ],
    testSecrets: [{ field: 'apiKey', label: 'API key for this address' }],
  },
  {
    id: 'automation',
    title: 'Automation (n8n)',
    purpose: 'A guest’s stage changes start its n8n workflows.',
    fields: [
      { key: 'AUTOMATION_URL', label: 'n8n address' },
      {
        key: 'AUTOMATION_AUTH_HEADER',
        label: 'Auth header',
        hint: 'Optional, as "Name: value" (n8n Header Auth).',
      },
    ],
    testSecrets: [{ field: 'authHeader', label: 'Auth header for this address' }],
  },
  {
    id: 'obs',
    title: 'Recorder (OBS)',
    purpose: 'The recorder names each take in OBS before it records.',
    fields: [
      {
        key: 'RECORDER_OBS_URL',
        label: 'OBS websocket address',
        hint: 'ws://host:4455 (OBS 28+: Tools → WebSocket Server Settings); none turns the recorder off.',
      },
      { key: 'RECORDER_OBS_PASSWORD', label: 'Websocket password' },
    ],
    testSecrets: [{ field: 'password', label: 'Password for this address' }],
  },
];

/** The bridge's own settings: where it listens, who may call it. */
export const bridgeFields: readonly FieldWords[] = [
  { key: 'BRIDGE_API_KEY', label: 'Bridge API key' },
  {
    key: 'BRIDGE_HOST',
    label: 'Listen address',
    hint: '127.0.0.1 for this computer only; 0.0.0.0 for the LAN.',
  },
  { key: 'BRIDGE_PORT', label: 'Port' },
  { key: 'BRIDGE_DATA_DIR', label: 'Data folder' },
  {
    key: 'BRIDGE_CORS_ORIGINS',
    label: 'Browser origins allowed',
    hint: 'Comma-separated, e.g. the CRM’s, for its recorder button.',
  },
  { key: 'BRIDGE_TRUST_PROXY', label: 'Trusted proxy hops', hint: 'A tunnel (cloudflared, ngrok) is one.' },
  { key: 'BRIDGE_SANDBOX', label: 'Sandbox', hint: '1: the simulated peers stand in for the real ones.' },
  {
    key: 'SANDBOX_TAKE_FILES',
    label: 'Sandbox takes as real files',
    hint: '1: the simulated OBS writes a small video file per take (with FFmpeg), so clips can be rendered.',
  },
];

/** The programs that render clips. */
export const renderingFields: readonly FieldWords[] = [
  { key: 'FFMPEG_PATH', label: 'FFmpeg program' },
  { key: 'FFPROBE_PATH', label: 'ffprobe program' },
];
