import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { AreaContext, AreaModule } from '../areas/area.js';
import type { BridgeConfig } from '../config/config.js';
import { locateMediaTools, outsideAsar } from '../kernel/media-tools.js';
import { startSandboxPeers, type SandboxObsOptions, type SandboxPeers } from './index.js';
import { sandboxArea } from './module.js';

/** The sandbox of a running bridge: its simulated peers, and the area that serves /api/sandbox/*. */
export interface BridgeSandbox {
  /** The key the simulated peers' `/__sandbox/*` control routes require (Settings shows it). */
  controlKey: string;
  area(ctx: AreaContext): AreaModule;
  /** The simulated CRM starts sending its webhooks to the bridge listening at `url`. */
  connect(url: string): void;
  /** The simulated CRM stops sending them (the bridge is stopping). */
  disconnect(): void;
  stop(): Promise<void>;
}

/**
 * Starts the simulated peers in the data dir (their world seeded once there, the operator's
 * changes kept: DESIGN §8) and points `config` at them.
 */
export async function startBridgeSandbox(
  config: BridgeConfig,
  options: { now: () => Date; warn: (message: string) => void },
): Promise<BridgeSandbox> {
  const peers = await startSandboxPeers({
    seedDemoData: true,
    worldDir: config.dataDir,
    warn: options.warn,
    now: options.now,
    postsvc: { plan: config.postsvcPlan },
    obs: simulatedObsFiles(config),
  });
  // The simulated CRM signs with the first configured secret, so the operator's are honoured.
  const webhookSecret = config.webhookSecrets[0] ?? randomBytes(16).toString('hex');
  useSandboxPeers(config, peers, webhookSecret);
  return {
    controlKey: peers.controlKey,
    area: (ctx) => sandboxArea(ctx, peers),
    connect: (url) => peers.crm.setWebhookTarget({ baseUrl: url, secret: webhookSecret }),
    disconnect: () => peers.crm.clearWebhookTarget(),
    stop: () => peers.stop(),
  };
}

/**
 * In sandbox mode the simulated peers stand in for every peer (DESIGN §8), with their own keys: a
 * key saved for a real peer is neither sent to them nor refused.
 */
function useSandboxPeers(config: BridgeConfig, sandbox: SandboxPeers, webhookSecret: string): void {
  const { recorder } = config.refusedKeys;
  config.refusedKeys = recorder === undefined ? {} : { recorder };
  config.crm = { url: sandbox.crm.url, apiKey: sandbox.crm.apiKey };
  if (config.webhookSecrets.length === 0) config.webhookSecrets = [webhookSecret];
  config.postsvc = {
    url: sandbox.postsvc.url,
    apiKey: sandbox.postsvc.apiKey,
    plan: config.postsvcPlan,
  };
  config.gateway = { url: sandbox.gateway.url, apiKey: sandbox.gateway.apiKey };
  config.automation = { url: sandbox.automation.url };
  // The simulated OBS unless the operator named a real one, or none (DESIGN §8).
  if (!config.recorder && !config.recorderOff) config.recorder = { url: sandbox.obs.url, simulated: true };
}

/** The timecode's font: the one shipped for captions (dejavu-fonts-ttf), outside a packaged app's archive. */
const TIMECODE_FONT = 'DejaVuSans-Bold.ttf';

/**
 * The simulated OBS writes a small real file per take when FFmpeg is there (DESIGN §8), in the data
 * dir, so the sandbox can rehearse renders; SANDBOX_TAKE_FILES=0 (the tests, unless one asks) turns it off.
 */
function simulatedObsFiles(config: BridgeConfig): SandboxObsOptions {
  const recordingDir = path.join(config.dataDir, 'sandbox-recordings');
  const ffmpeg = config.sandboxTakeFiles ? locateMediaTools(config).ffmpeg?.path : undefined;
  if (!ffmpeg) return { recordingDir };
  const fontFile = createRequire(import.meta.url).resolve(`dejavu-fonts-ttf/ttf/${TIMECODE_FONT}`);
  return {
    recordingDir,
    takeFiles: { ffmpeg, font: { dir: outsideAsar(path.dirname(fontFile)), file: TIMECODE_FONT } },
  };
}
