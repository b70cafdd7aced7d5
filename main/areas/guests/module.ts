import {
  getEmailTemplates,
  getGuestPipeline,
  getGuestTimeline,
  listGuests,
  listWorkflowRuns,
  moveGuestStage,
  previewEmailTemplate,
  putEmailTemplates,
  runGuestWorkflow,
  sandboxAutomationReceived,
  templateVariables,
} from '../../../shared/api/guests.js';
import { AutomationClient } from '../../peers/automation.js';
import type { FeatureFactory } from '../../core.js';
import { AppError } from '../../kernel/app-error.js';
import { GuestsService } from './guests-service.js';
import { StageTracker } from './stage-tracker.js';
import { TemplateStore } from './template-store.js';
import { defaultTemplates, defaultTemplateSettings } from './templates.js';
import { GuestWorkflows } from './workflows.js';
import { createGuestsRepo, toWorkflowRun } from './repo.js';

/**
 * Guests (spec §1.9, §1.10, §3.3; DESIGN §5.4, §6.1.5): stage history from the guest webhooks,
 * workflows started at n8n once per guest and stage, the pipeline ratios, the email templates.
 */
export const guestsFeature: FeatureFactory = (core) => {
  const repo = createGuestsRepo(core.db);
  const templates = new TemplateStore(core.repos.settings, core.now);
  const automation = core.config.automation
    ? new AutomationClient({ ...core.config.automation, onAttempt: core.peers.observer('automation') })
    : null;
  const workflows = new GuestWorkflows({
    repo,
    jobs: core.jobs,
    activity: core.activity,
    crm: core.crm,
    automation,
    templates,
    now: core.now,
  });
  const tracker = new StageTracker({ repo, workflows, activity: core.activity, now: core.now });
  const service = new GuestsService({
    repo,
    crm: core.crm,
    tracker,
    workflows,
    templates,
    activity: core.activity,
    now: core.now,
  });
  core.webhooks.setHandler('guest-created', service.onCreated);
  core.webhooks.setHandler('guest-updated', service.onUpdated);

  const templatesBody = () => ({
    success: true as const,
    ...templates.get(),
    defaults: { templates: defaultTemplates, settings: defaultTemplateSettings },
    variables: [...templateVariables],
  });

  return {
    name: 'guests',
    mountRoutes(mount) {
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
        core.activity.record('guests.templates', 'info', 'email templates updated', {
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
      mount(sandboxAutomationReceived, () => {
        const engine = core.sandbox?.automation;
        if (!engine)
          throw AppError.notFound('sandbox mode is off: there is no simulated automation engine');
        return { success: true, workflows: engine.workflows(), received: engine.received().reverse() };
      });
    },
    async start() {
      if (!core.sandbox || !core.crm) return;
      try {
        await service.seedDemoHistory();
      } catch (error) {
        core.logger.warn({ err: error }, 'guests: demo stage history not seeded');
      }
    },
  };
};
