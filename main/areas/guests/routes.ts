import {
  checkGuestHold,
  getEmailTemplates,
  getGuestPipeline,
  getGuestTimeline,
  listGuestHolds,
  listGuests,
  listWorkflowRuns,
  moveGuestStage,
  previewEmailTemplate,
  putEmailTemplates,
  runGuestWorkflow,
  sendHeldWorkflow,
  templateVariables,
} from '../../../shared/api/guests.js';
import { AppError } from '../../kernel/app-error.js';
import type { AreaContext, Mount } from '../area.js';
import type { GuestsService } from './guests-service.js';
import type { GuestsRepo } from './repo.js';
import { toWorkflowRun } from './repo.js';
import type { TemplateStore } from './template-store.js';
import { defaultTemplates, defaultTemplateSettings } from './templates.js';

export interface GuestsRouteDeps {
  service: GuestsService;
  repo: GuestsRepo;
  templates: TemplateStore;
}

export function guestsRoutes(
  mount: Mount,
  ctx: AreaContext,
  { service, repo, templates }: GuestsRouteDeps,
): void {
  const templatesBody = () => ({
    success: true as const,
    ...templates.get(),
    defaults: { templates: defaultTemplates, settings: defaultTemplateSettings },
    variables: [...templateVariables],
  });
  mount(getGuestPipeline, async ({ query }) => {
    if (query.startDate && query.endDate && query.startDate > query.endDate)
      throw AppError.invalidDate(`startDate ${query.startDate} is after endDate ${query.endDate}`);
    const summary = await service.pipeline(query);
    return {
      success: true,
      range: {
        startDate: query.startDate ?? null,
        endDate: query.endDate ?? null,
        basis: 'pipeline-start' as const,
      },
      ...summary,
    };
  });
  mount(getEmailTemplates, templatesBody);
  mount(putEmailTemplates, ({ body }) => {
    templates.put(body);
    ctx.activity.record('guests.templates', 'info', 'email templates updated', {
      templates: Object.keys(body.templates ?? {}),
      settings: Object.keys(body.settings ?? {}),
    });
    return templatesBody();
  });
  mount(previewEmailTemplate, async ({ body }) => ({
    success: true,
    ...(await service.preview(body)),
  }));
  mount(listGuests, async () => ({ success: true, data: await service.list() }));
  mount(listWorkflowRuns, ({ query }) => ({
    success: true,
    data: repo.recentRuns(query.limit).map(toWorkflowRun),
  }));
  mount(getGuestTimeline, async ({ params }) => ({
    success: true,
    ...(await service.timeline(params.id)),
  }));
  mount(runGuestWorkflow, async ({ params }) => ({
    success: true,
    run: await service.runAgain(params.id, params.stage),
  }));
  mount(moveGuestStage, async ({ params, body }) => ({
    success: true,
    ...(await service.moveStage(params.id, body.stage)),
  }));
  mount(listGuestHolds, () => ({ success: true, data: service.holds() }));
  mount(checkGuestHold, async ({ params }) => ({
    success: true,
    ...(await service.checkHold(params.id, params.stage)),
  }));
  mount(sendHeldWorkflow, async ({ params }) => ({
    success: true,
    ...(await service.sendHeldAnyway(params.id, params.stage)),
  }));
}
