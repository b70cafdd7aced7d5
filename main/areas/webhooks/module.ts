import type { WebhookEvent } from '../../../shared/api/webhooks.js';
import { createKeyValueRepo } from '../../kernel/key-value-repo.js';
import type { CrmEntity } from '../../peers/crm.js';
import type {
  AreaContext,
  AreaModule,
  CatchUpHandler,
  RecordJobHandler,
  WebhookItemHandler,
} from '../area.js';
import { CrmCatchUp } from './catchup.js';
import { createCatchUpRepo } from './catchup-repo.js';
import { WebhookIntake } from './intake.js';
import { createRecordMarks } from './record-marks.js';
import { createWebhooksRepo } from './repo.js';
import { createWebhookBindings } from './bindings.js';
import { webhookRoutes } from './routes.js';

const RETENTION_MS = 14 * 24 * 3600 * 1000;

export interface WebhooksWiring {
  /** CRM senders give up after 10 s; DESIGN §6.1 answers within 8. */
  budgetMs: number;
  /** Tests only: catch-up this often instead of every CRM_CATCHUP_MINUTES. */
  catchUpEveryMs?: number;
}

/**
 * Webhook intake (DESIGN §6.1): the eleven CRM receivers and the test webhook. Verifying is
 * http/'s guard; this area logs each delivery, queues each item once and answers within the
 * budget. What an item does is up to the area that owns its event; what CRM catch-up (DESIGN
 * §6.9) does with a record, up to the area that owns its entity.
 */
export function webhooksArea(ctx: AreaContext, wiring: WebhooksWiring): AreaModule {
  const repo = ctx.repo(createWebhooksRepo);
  // The records' "last touched" marks, raised by items here and by every CRM write-back (DESIGN §6.1.2).
  const marks = ctx.repo(createRecordMarks);
  const intake = new WebhookIntake({
    repo,
    marks,
    groupCommit: ctx.groupCommit,
    logger: ctx.logger,
    jobs: ctx.jobs,
    activity: ctx.activity,
    now: ctx.now,
    budgetMs: wiring.budgetMs,
  });
  ctx.scheduler.every(
    'webhook delivery retention',
    3_600_000,
    () => repo.pruneBefore(new Date(ctx.now().getTime() - RETENTION_MS).toISOString()),
    true,
  );
  const catchUp = new CrmCatchUp({
    crm: ctx.peers.crm,
    jobs: ctx.jobs,
    repo: ctx.repo(createCatchUpRepo),
    settings: ctx.repo(createKeyValueRepo),
    activity: ctx.activity,
    logger: ctx.logger,
    now: ctx.now,
  });
  // DESIGN §6.9: at start and every CRM_CATCHUP_MINUTES; 0 is off, also at start.
  const intervalMs =
    ctx.config.crmCatchUpMinutes > 0 ? (wiring.catchUpEveryMs ?? ctx.config.crmCatchUpMinutes * 60_000) : 0;
  if (intervalMs > 0 && ctx.peers.crm) {
    ctx.scheduler.add({
      name: 'crm catch-up',
      nextInMs: () => catchUp.nextInMs(intervalMs),
      run: () => catchUp.run(),
      runAtStart: true,
    });
  }
  const bindings = ctx.repo(createWebhookBindings);
  return {
    name: 'webhooks',
    routes: (mount) => webhookRoutes(mount, intake, { bindings, logger: ctx.logger, now: ctx.now }),
    offers: { lastCatchUp: () => catchUp.status() },
    // A write-back marks its record touched, so an identical later item is a genuine repeat.
    onCrmWrite: marks.writeListener(ctx.now),
    meet(areas) {
      for (const area of areas) {
        for (const [event, handler] of Object.entries(area.webhooks ?? {}) as [
          WebhookEvent,
          WebhookItemHandler | RecordJobHandler,
        ][]) {
          intake.setHandler(event, handler);
        }
        for (const [entity, handler] of Object.entries(area.catchUp ?? {}) as [CrmEntity, CatchUpHandler][]) {
          catchUp.setHandler(entity, handler);
        }
      }
    },
  };
}
