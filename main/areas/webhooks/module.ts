import type { WebhookEvent } from '../../../shared/api/webhooks.js';
import type { AreaContext, AreaModule, WebhookItemHandler } from '../area.js';
import { WebhookIntake } from './intake.js';
import type { RecordMarks } from './record-marks.js';
import { createWebhooksRepo } from './repo.js';
import { createWebhookBindings } from './bindings.js';
import { webhookRoutes } from './routes.js';

const RETENTION_MS = 14 * 24 * 3600 * 1000;

export interface WebhooksWiring {
  /** Every area's item handlers, by the webhook event they own. */
  handlers: ReadonlyArray<Partial<Record<WebhookEvent, WebhookItemHandler>>>;
  /** The records' "last touched" marks, raised by items here and by every CRM write-back. */
  marks: RecordMarks;
  /** CRM senders give up after 10 s; DESIGN §6.1 answers within 8. */
  budgetMs: number;
}

/**
 * Webhook intake (DESIGN §6.1): the eleven CRM receivers and the test webhook. Verifying is
 * http/'s guard; this area logs each delivery, queues each item once and answers within the
 * budget. What an item does is up to the area that owns its event.
 */
export function webhooksArea(ctx: AreaContext, wiring: WebhooksWiring): AreaModule {
  const repo = ctx.repo(createWebhooksRepo);
  const intake = new WebhookIntake({
    repo,
    marks: wiring.marks,
    groupCommit: ctx.groupCommit,
    logger: ctx.logger,
    jobs: ctx.jobs,
    activity: ctx.activity,
    now: ctx.now,
    budgetMs: wiring.budgetMs,
  });
  for (const handlers of wiring.handlers) {
    for (const [event, handler] of Object.entries(handlers) as [WebhookEvent, WebhookItemHandler][]) {
      intake.setHandler(event, handler);
    }
  }
  ctx.scheduler.every(
    'webhook delivery retention',
    3_600_000,
    () => repo.pruneBefore(new Date(ctx.now().getTime() - RETENTION_MS).toISOString()),
    true,
  );
  const bindings = ctx.repo(createWebhookBindings);
  return {
    name: 'webhooks',
    routes: (mount) => webhookRoutes(mount, intake, { bindings, logger: ctx.logger, now: ctx.now }),
  };
}
