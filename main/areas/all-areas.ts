import type { SecretStore } from '../config/config.js';
import type { AreaContext, AreaModule } from './area.js';
import { analyticsArea, type AnalyticsTuning } from './analytics/module.js';
import { broadcastsArea, type BroadcastsTuning } from './broadcasts/module.js';
import { clipsArea, type ClipsTuning } from './clips/module.js';
import { guestsArea } from './guests/module.js';
import { healthArea } from './health/module.js';
import { postingArea, type PostingTuning } from './posting/module.js';
import { productionsArea } from './productions/module.js';
import { publishingArea } from './publishing/module.js';
import { recorderArea } from './recorder/module.js';
import { rendersArea, type RendersTuning } from './renders/module.js';
import { searchArea } from './search/module.js';
import { settingsArea } from './settings/module.js';
import { webhooksArea } from './webhooks/module.js';

/** The areas of the bridge (DESIGN §2), in the order their routes are mounted. */
export const areaNames = [
  'health',
  'webhooks',
  'recorder',
  'settings',
  'broadcasts',
  'publishing',
  'analytics',
  'guests',
  'posting',
  'clips',
  'renders',
  'search',
  'productions',
] as const;
export type AreaName = (typeof areaNames)[number];

/** Timing knobs of the areas (tests and benchmarks shorten or widen them). */
export interface AreaTuning {
  posting?: PostingTuning;
  analytics?: AnalyticsTuning;
  broadcasts?: BroadcastsTuning;
  clips?: ClipsTuning;
  renders?: RendersTuning;
  /** Tests only: CRM catch-up this often (ms) instead of every CRM_CATCHUP_MINUTES (which counts in whole minutes). */
  webhooks?: { catchUpEveryMs?: number };
}

/** What the composition root hands the areas besides their context. */
export interface AreaWiring {
  version: string;
  startedAt: Date;
  /** Why the disk makes the bridge degraded, for /health. */
  storageReasons: () => string[];
  tuning: AreaTuning;
  webhookBudgetMs: number;
  secretStore?: SecretStore;
  /** The simulated peers' control key, for holders of the bridge key (Settings); null with real peers. */
  sandboxControlKey: string | null;
}

const build: Record<AreaName, (ctx: AreaContext, wiring: AreaWiring) => AreaModule> = {
  health: (ctx, { version, startedAt, storageReasons }) =>
    healthArea(ctx, { version, startedAt, storageReasons }),
  webhooks: (ctx, { webhookBudgetMs, tuning }) =>
    webhooksArea(ctx, {
      budgetMs: webhookBudgetMs,
      ...(tuning.webhooks?.catchUpEveryMs !== undefined
        ? { catchUpEveryMs: tuning.webhooks.catchUpEveryMs }
        : {}),
    }),
  recorder: (ctx) => recorderArea(ctx),
  settings: (ctx, { secretStore, sandboxControlKey }) => settingsArea(ctx, secretStore, sandboxControlKey),
  broadcasts: (ctx, { tuning }) => broadcastsArea(ctx, tuning.broadcasts),
  publishing: (ctx) => publishingArea(ctx),
  analytics: (ctx, { tuning }) => analyticsArea(ctx, tuning.analytics),
  guests: (ctx) => guestsArea(ctx),
  posting: (ctx, { tuning }) => postingArea(ctx, tuning.posting),
  clips: (ctx, { tuning }) => clipsArea(ctx, tuning.clips),
  renders: (ctx, { tuning }) => rendersArea(ctx, tuning.renders),
  search: (ctx) => searchArea(ctx),
  productions: (ctx) => productionsArea(ctx),
};

/**
 * Builds the wanted areas in mount order, after `first` (the sandbox's, when it runs), then has
 * each meet the others: what one area asks of another goes through their modules (AreaModule).
 */
export function buildAreas(
  ctx: AreaContext,
  wanted: ReadonlySet<AreaName>,
  wiring: AreaWiring,
  first: readonly AreaModule[] = [],
): AreaModule[] {
  const areas = [
    ...first,
    ...areaNames.filter((name) => wanted.has(name)).map((name) => build[name](ctx, wiring)),
  ];
  for (const area of areas) area.meet?.(areas);
  return areas;
}
