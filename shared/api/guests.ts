import { z } from 'zod';
import { calendarDate, defineContract, idString, queryInt } from './contract.js';

/** GuestBooking.stage in pipeline order (spec §2.2, §3.3). */
export const guestStages = [
  'Outreach',
  'Responded',
  'Confirmed',
  'Scheduled',
  'Recorded',
  'Published',
] as const;
export type GuestStage = (typeof guestStages)[number];
export const guestStage = z.enum(guestStages);

/** The stages that start an automation workflow, and its name (spec §3.3). */
export const workflowStages = ['Confirmed', 'Scheduled', 'Recorded', 'Published'] as const;
export type WorkflowStage = (typeof workflowStages)[number];
export const workflowStage = z.enum(workflowStages);
export const workflowOfStage: Record<WorkflowStage, string> = {
  Confirmed: 'guest-confirmed',
  Scheduled: 'guest-scheduled',
  Recorded: 'guest-recorded',
  Published: 'guest-published',
};

/** The three email moments of spec §1.10. */
export const emailMoments = ['outreach', 'confirmation', 'thank-you'] as const;
export type EmailMoment = (typeof emailMoments)[number];
export const emailMoment = z.enum(emailMoments);

/** The email sent along with a stage's workflow, where there is one. */
export const emailOfStage: Partial<Record<GuestStage, EmailMoment>> = {
  Confirmed: 'confirmation',
  Recorded: 'thank-you',
};

/** Template variables of spec §1.10, written `{{name}}`. */
export const templateVariables = [
  'name',
  'show',
  'topic',
  'audience_size',
  'subject',
  'duration',
  'host',
  'date',
  'time',
  'timezone',
  'platform',
  'publish_date',
] as const;
export type TemplateVariable = (typeof templateVariables)[number];

/** Where a stage history row came from. */
export const stageSources = ['created', 'webhook', 'dashboard', 'fetched', 'demo', 'catch-up'] as const;
export type StageSource = (typeof stageSources)[number];

export const workflowRunStatuses = ['queued', 'started', 'failed'] as const;

const nullableText = z.string().nullable();

export const stageEntry = z.object({
  id: z.number(),
  stage: z.string(),
  previousStage: nullableText,
  enteredAt: z.string(),
  source: z.enum(stageSources),
});

export const workflowRun = z.object({
  id: z.number(),
  guestId: z.string(),
  guestName: nullableText,
  stage: workflowStage,
  workflow: z.string(),
  /** stage-change: the bridge saw the guest enter the stage; run-again: the operator asked. */
  trigger: z.enum(['stage-change', 'run-again']),
  status: z.enum(workflowRunStatuses),
  /** n8n's message (or the error), shown to the operator. */
  message: nullableText,
  /** n8n's hint for a workflow that is not registered (DESIGN §5.4). */
  hint: nullableText,
  httpStatus: z.number().nullable(),
  attempts: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
  startedAt: nullableText,
  failedAt: nullableText,
});
export type WorkflowRun = z.infer<typeof workflowRun>;

/**
 * How a held workflow ended (DESIGN §6.8): waiting for values; released when the CRM filled
 * them; sent-anyway by the operator's explicit choice; superseded when the guest moved to
 * another stage first (nothing sent).
 */
export const holdStatuses = ['waiting', 'released', 'sent-anyway', 'superseded'] as const;
export type HoldStatus = (typeof holdStatuses)[number];

/**
 * Why a workflow is held: its email would render empty variables (§6.8, released by a re-check
 * once they are filled), or CRM catch-up found its transition late (§6.9: only the operator
 * releases it).
 */
export const holdReasons = ['missing-values', 'late'] as const;
export type HoldReason = (typeof holdReasons)[number];

/** A stage workflow not started: its email would render empty variables, or it was found late. */
export const guestHold = z.object({
  id: z.number(),
  guestId: z.string(),
  guestName: nullableText,
  stage: workflowStage,
  workflow: z.string(),
  /** The stage's email; null for a late hold of a stage that sends none. */
  moment: emailMoment.nullable(),
  /** The template variables that would render empty, in the order the email uses them. */
  missing: z.array(z.string()),
  status: z.enum(holdStatuses),
  reason: z.enum(holdReasons),
  /** A late hold: why it was not sent ("found 25 h after the guest moved to Confirmed ..."). */
  note: nullableText,
  /** The run started when the hold ended released or sent-anyway. */
  runId: z.number().nullable(),
  createdAt: z.string(),
  /** When the values were last checked (every CRM event for the guest or its content, or on request). */
  checkedAt: z.string(),
  resolvedAt: nullableText,
});
export type GuestHold = z.infer<typeof guestHold>;

export const guestSummary = z.object({
  id: z.string(),
  name: z.string(),
  email: nullableText,
  /** The CRM's current stage (a value outside the pipeline is passed through as is). */
  stage: z.string(),
  scheduledDate: nullableText,
  timezone: nullableText,
  topics: nullableText,
  contentProductionId: nullableText,
  contentProductionName: nullableText,
  createdAt: nullableText,
  /** When the bridge saw the guest enter the current stage (null: not in the bridge's history). */
  stageEnteredAt: nullableText,
  /** The latest run of each workflow stage for this guest. */
  workflows: z.array(workflowRun),
  /** The workflow of the current stage, when it is held waiting for values (DESIGN §6.8). */
  hold: guestHold.nullable(),
});
export type GuestSummary = z.infer<typeof guestSummary>;

export const listGuests = defineContract({
  method: 'get',
  path: '/api/guests',
  tag: 'guests',
  summary: 'Guests from the CRM with the stage history and workflow runs the bridge keeps.',
  auth: 'key',
  response: z.object({ success: z.literal(true), data: z.array(guestSummary) }),
});

const guestIdParams = z.object({ id: idString });

export const contentStageEntry = z.object({
  id: z.number(),
  contentId: z.string(),
  stage: z.string(),
  previousStage: nullableText,
  enteredAt: z.string(),
  source: z.string(),
});

export const getGuestTimeline = defineContract({
  method: 'get',
  path: '/api/guests/:id/timeline',
  tag: 'guests',
  summary: "A guest's stage changes, the workflows they started and the linked content's stage changes.",
  auth: 'key',
  params: guestIdParams,
  response: z.object({
    success: z.literal(true),
    guest: guestSummary,
    stages: z.array(stageEntry),
    runs: z.array(workflowRun),
    contentStages: z.array(contentStageEntry),
  }),
});

export const runGuestWorkflow = defineContract({
  method: 'post',
  path: '/api/guests/:id/workflows/:stage/run',
  tag: 'guests',
  summary:
    "Run a stage's workflow again for a guest (the operator's explicit choice; stage changes start each workflow once).",
  auth: 'key',
  params: guestIdParams.extend({ stage: workflowStage }),
  response: z.object({ success: z.literal(true), run: workflowRun }),
});

export const moveGuestStage = defineContract({
  method: 'post',
  path: '/api/guests/:id/stage',
  tag: 'guests',
  summary:
    "Move a guest to a stage in the CRM. The bridge records the change and starts the stage's workflow once; the CRM's echo starts nothing. A workflow whose email would render empty variables is held instead (`hold`), not started.",
  auth: 'key',
  params: guestIdParams,
  body: z.object({ stage: guestStage }),
  response: z.object({
    success: z.literal(true),
    guest: guestSummary,
    /** false when the guest already was at that stage. */
    changed: z.boolean(),
    run: workflowRun.nullable(),
    hold: guestHold.nullable(),
  }),
});

export const listGuestHolds = defineContract({
  method: 'get',
  path: '/api/guests/holds',
  tag: 'guests',
  summary:
    'Guest workflows held because their email would render empty variables, oldest first (DESIGN §6.8).',
  auth: 'key',
  response: z.object({ success: z.literal(true), data: z.array(guestHold) }),
});

const holdParams = guestIdParams.extend({ stage: workflowStage });
const holdResponse = z.object({
  success: z.literal(true),
  hold: guestHold,
  /** The run started by this request; null when the hold still waits. */
  run: workflowRun.nullable(),
});

export const checkGuestHold = defineContract({
  method: 'post',
  path: '/api/guests/:id/holds/:stage/check',
  tag: 'guests',
  summary:
    "Check a held workflow's values again against the CRM now: it starts once when nothing is missing.",
  auth: 'key',
  params: holdParams,
  response: holdResponse,
});

export const sendHeldWorkflow = defineContract({
  method: 'post',
  path: '/api/guests/:id/holds/:stage/send-anyway',
  tag: 'guests',
  summary:
    "Start a held workflow with the values still missing (the operator's explicit choice, recorded in activity).",
  auth: 'key',
  params: holdParams,
  response: holdResponse,
});

export const listWorkflowRuns = defineContract({
  method: 'get',
  path: '/api/guests/workflows',
  tag: 'guests',
  summary: 'Recent workflow runs of every guest, newest first.',
  auth: 'key',
  query: z.object({ limit: queryInt(1, 200).default(20) }),
  response: z.object({ success: z.literal(true), data: z.array(workflowRun) }),
});

const rate = z.number().nullable();
const targetOf = z.object({
  /** The spec §1.9 target: a rate as a fraction (0.3 = 30 %) or days. */
  target: z.number(),
  /** above: the value must be higher than the target; below: lower. */
  direction: z.enum(['above', 'below']),
  /** null when there is not enough data to compute the value. */
  met: z.boolean().nullable(),
});
const stageCounts = z.object(
  Object.fromEntries(guestStages.map((stage) => [stage, z.number()])) as Record<GuestStage, z.ZodNumber>,
);

export const getGuestPipeline = defineContract({
  method: 'get',
  path: '/guests/pipeline',
  tag: 'guests',
  summary:
    'Guest pipeline: cumulative counts per stage (a guest at Scheduled also responded and confirmed), guests currently at each stage, and the spec §1.9 ratios against their targets. startDate/endDate (YYYY-MM-DD, inclusive, UTC) select guests whose pipeline started in that range: the first stage the bridge recorded for them, else their CRM createdAt.',
  auth: 'key',
  query: z.object({ startDate: calendarDate.optional(), endDate: calendarDate.optional() }),
  response: z.object({
    success: z.literal(true),
    range: z.object({
      startDate: nullableText,
      endDate: nullableText,
      basis: z.literal('pipeline-start'),
    }),
    total: z.number(),
    counts: stageCounts,
    current: stageCounts,
    /** Guests whose CRM stage is not one of the six (counted in total only). */
    otherStage: z.number(),
    ratios: z.object({
      responseRate: rate,
      confirmationRate: rate,
      showRate: rate,
      timeToPublishDays: rate,
    }),
    targets: z.object({
      responseRate: targetOf,
      confirmationRate: targetOf,
      showRate: targetOf,
      timeToPublishDays: targetOf,
    }),
    /** How many Recorded → Published pairs the median is taken over. */
    publishedSamples: z.number(),
    /**
     * What the show rate is taken over: only guests whose recording date has passed can have
     * shown or not. recorded / due = showRate; notYetDue reached Scheduled with a recording
     * still to come (or no date): they are left out.
     */
    showRateBasis: z.object({
      recorded: z.number(),
      due: z.number(),
      notYetDue: z.number(),
      rule: z.string(),
    }),
  }),
});

export const emailTemplate = z.object({
  subject: z.string().max(300),
  body: z.string().max(20_000),
});
export type EmailTemplate = z.infer<typeof emailTemplate>;

/** Values the CRM does not hold: the studio's own facts, edited with the templates. */
export const templateSettings = z.object({
  host: z.string().max(200),
  /** Used when the guest's content has no showName. */
  show: z.string().max(200),
  audienceSize: z.string().max(200),
  duration: z.string().max(200),
  /** Used when the guest's content has no platforms. */
  platform: z.string().max(200),
  /** Publish date estimate when the content has no publishing record: recording date + this many days. */
  publishLagDays: z.number().int().min(0).max(365),
});
export type TemplateSettings = z.infer<typeof templateSettings>;

const templateSet = z.object({
  outreach: emailTemplate,
  confirmation: emailTemplate,
  'thank-you': emailTemplate,
});
export type TemplateSet = z.infer<typeof templateSet>;

const templatesResponse = z.object({
  success: z.literal(true),
  templates: templateSet,
  settings: templateSettings,
  defaults: z.object({ templates: templateSet, settings: templateSettings }),
  variables: z.array(z.string()),
  updatedAt: nullableText,
});

export const getEmailTemplates = defineContract({
  method: 'get',
  path: '/guests/templates',
  tag: 'guests',
  summary: 'The outreach, confirmation and thank-you email templates and the studio values they use.',
  auth: 'key',
  response: templatesResponse,
});

export const putEmailTemplates = defineContract({
  method: 'put',
  path: '/guests/templates',
  tag: 'guests',
  summary:
    'Replace templates and/or settings (each given part replaces that part). Unknown {{variables}} are refused.',
  auth: 'key',
  body: z.object({
    templates: templateSet.partial().optional(),
    settings: templateSettings.partial().optional(),
  }),
  response: templatesResponse,
});

export const previewEmailTemplate = defineContract({
  method: 'post',
  path: '/guests/templates/preview',
  tag: 'guests',
  summary:
    "Render a template for a guest with real data (date and time in the guest's time zone). `template` previews unsaved text.",
  auth: 'key',
  body: z.object({
    moment: emailMoment,
    guestId: idString,
    template: emailTemplate.optional(),
    settings: templateSettings.partial().optional(),
  }),
  response: z.object({
    success: z.literal(true),
    moment: emailMoment,
    to: nullableText,
    subject: z.string(),
    body: z.string(),
    values: z.record(z.string(), z.string().nullable()),
    /** `{{x}}` that is not one of the twelve variables (left as written). */
    unknownVariables: z.array(z.string()),
    /** Variables used by the template that have no value for this guest (rendered empty). */
    missingValues: z.array(z.string()),
    notes: z.array(z.string()),
  }),
});
