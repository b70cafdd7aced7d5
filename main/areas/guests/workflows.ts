import { emailOfStage, workflowOfStage, type WorkflowStage } from '../../../shared/api/guests.js';
import { automationErrorBody, type AutomationClient } from '../../peers/automation.js';
import type { CrmClient } from '../../peers/crm.js';
import { PeerError } from '../../peers/peer-error.js';
import { AppError } from '../../kernel/app-error.js';
import { RetryLaterError, type JobContext, type JobQueue } from '../../kernel/jobs/queue.js';
import { followUpLane } from '../../kernel/jobs/lane.js';
import type { GuestsRepo, StageRow, WorkflowRunRow } from './repo.js';
import type { ActivityLog } from '../../kernel/activity/activity-log.js';
import { linkedContent, renderEmailFor } from './guest-data.js';
import { named, recordSubject, type ActivitySubject } from '../../kernel/activity/subjects.js';

/** The guest a workflow run is for, by the name the run was queued with. */
function guestOf(run: WorkflowRunRow): ActivitySubject {
  return recordSubject('guest', run.guest_id, run.guest_name);
}
import type { TemplateStore } from './template-store.js';

export const GUEST_WORKFLOW_JOB = 'guests.workflow';
/**
 * A guest's workflow runs take turns in a lane of their own, not the guest record's: a run is
 * retried for as long as n8n is down, and in the record's lane it would hold back the guest's
 * next stage changes behind it (kernel/jobs/lane.ts).
 */
const guestWorkflowLane = (guestId: string) => followUpLane('guest-workflow', guestId);
/** 2 s doubling: the last of 10 attempts is about 17 minutes after the first (n8n restarts, deploys). */
const MAX_ATTEMPTS = 10;

export interface WorkflowDeps {
  repo: GuestsRepo;
  jobs: JobQueue;
  activity: ActivityLog;
  crm: CrmClient | null;
  automation: AutomationClient | null;
  templates: TemplateStore;
  now: () => Date;
}

interface JobPayload {
  runId: number;
}

interface Failure {
  message: string;
  hint: string | null;
  httpStatus: number | null;
}

/**
 * Starts guest workflows at the automation engine (spec §3.3, DESIGN §5.4). A run row is
 * created with its job in one transaction; the job reads the guest from the CRM, renders the
 * moment's email and calls n8n. Network errors, 429 and 5xx are retried by the queue; a
 * refusal (404 not registered, 401/403) fails the run at once with n8n's message and hint.
 */
export class GuestWorkflows {
  constructor(private readonly deps: WorkflowDeps) {
    deps.jobs.register<JobPayload>(GUEST_WORKFLOW_JOB, (payload, context) => this.run(payload, context), {
      maxAttempts: MAX_ATTEMPTS,
      logDone: false,
      describe: ({ runId }) => {
        const run = deps.repo.getRun(runId);
        return run ? `${run.workflow} for ${named(guestOf(run))}` : `workflow run ${runId}`;
      },
      subject: ({ runId }) => {
        const run = deps.repo.getRun(runId);
        return run ? { subject: guestOf(run), noun: `${run.workflow} for guest` } : undefined;
      },
    });
  }

  /**
   * The stage-change run of a guest entering a workflow stage, queued with its job — unless
   * that guest's workflow for the stage already ran once (then the existing run is returned).
   * Call inside the transaction that records the stage entry.
   */
  queueStageChange(
    entry: StageRow,
    stage: WorkflowStage,
    guestName: string | null,
  ): { run: WorkflowRunRow; queued: boolean } {
    const { repo, jobs, now } = this.deps;
    const inserted = repo.insertRun(
      {
        guestId: entry.guest_id,
        guestName,
        stage,
        workflow: workflowOfStage[stage],
        trigger: 'stage-change',
        stageEntryId: entry.id,
      },
      now().toISOString(),
    );
    if (!inserted) return { run: repo.autoRun(entry.guest_id, stage) as WorkflowRunRow, queued: false };
    const job = jobs.enqueue({
      kind: GUEST_WORKFLOW_JOB,
      payload: { runId: inserted.id } satisfies JobPayload,
      lane: guestWorkflowLane(entry.guest_id),
      dedupeKey: `guest-workflow:${entry.guest_id}:${stage}:entry-${entry.id}`,
    });
    repo.setJob(inserted.id, job.id);
    return { run: { ...inserted, job_id: job.id }, queued: true };
  }

  /** The operator's explicit "run again" (also the retry of a failed run). */
  runAgain(guestId: string, stage: WorkflowStage, guestName: string | null): WorkflowRunRow {
    const { repo, jobs, activity, now } = this.deps;
    const run = repo.transaction(() => {
      const runs = repo.runsOf(guestId).filter((r) => r.stage === stage);
      const pending = runs.find((r) => r.status === 'queued');
      if (pending) {
        throw AppError.conflict(
          `${workflowOfStage[stage]} for this guest is already queued (run ${pending.id}, ${pending.attempts} attempt${pending.attempts === 1 ? '' : 's'} so far)`,
        );
      }
      const entry = [...repo.stagesOf(guestId)].reverse().find((s) => s.stage === stage);
      const name = guestName ?? runs.at(-1)?.guest_name ?? null;
      const inserted = repo.insertRun(
        {
          guestId,
          guestName: name,
          stage,
          workflow: workflowOfStage[stage],
          trigger: 'run-again',
          stageEntryId: entry?.id ?? null,
        },
        now().toISOString(),
      ) as WorkflowRunRow;
      const job = jobs.enqueue({
        kind: GUEST_WORKFLOW_JOB,
        payload: { runId: inserted.id } satisfies JobPayload,
        lane: guestWorkflowLane(guestId),
        dedupeKey: `guest-workflow:${guestId}:${stage}:run-${inserted.id}`,
      });
      repo.setJob(inserted.id, job.id);
      return { ...inserted, job_id: job.id };
    });
    activity.record(
      'guests.workflow',
      'info',
      `${run.workflow} for ${named(guestOf(run))}: run again (operator)`,
      { subject: guestOf(run), guestId, runId: run.id, workflow: run.workflow, stage },
    );
    return run;
  }

  private async run(payload: JobPayload, context: JobContext): Promise<unknown> {
    const { repo, activity, automation, crm, now } = this.deps;
    const run = repo.getRun(payload.runId);
    if (!run) return { runId: payload.runId, status: 'missing' };
    // Idempotent: a job that started the workflow and then crashed before finishing is not sent twice.
    if (run.status === 'started') return { runId: run.id, status: 'started' };
    repo.markAttempt(run.id, run.attempts + 1, now().toISOString());
    if (!automation) {
      return this.fail(run, {
        message: 'the automation engine is not configured',
        hint: 'Set AUTOMATION_URL (and AUTOMATION_AUTH_HEADER if n8n requires a header), restart the bridge, then run the workflow again.',
        httpStatus: null,
      });
    }
    if (!crm) {
      return this.fail(run, {
        message: 'the CRM is not configured: the guest cannot be read',
        hint: null,
        httpStatus: null,
      });
    }
    try {
      const body = await this.buildPayload(crm, run);
      const result = await automation.startWorkflow(run.workflow, body, {
        signal: context.signal,
        headers: { 'X-Studio-Bridge-Run': String(run.id) },
      });
      repo.markStarted(run.id, result.message, result.status, now().toISOString());
      activity.record(
        'guests.workflow',
        'info',
        `${run.workflow} started for ${named(guestOf(run))}${result.message ? `: ${result.message}` : ''}`,
        {
          subject: guestOf(run),
          guestId: run.guest_id,
          runId: run.id,
          workflow: run.workflow,
          stage: run.stage,
        },
      );
      return { runId: run.id, status: 'started' };
    } catch (error) {
      if (context.signal.aborted) throw error;
      return this.handleFailure(run, error, context);
    }
  }

  private async buildPayload(crm: CrmClient, run: WorkflowRunRow) {
    const { repo, templates, now } = this.deps;
    const guest = await crm.get('GuestBooking', run.guest_id);
    const content = await linkedContent(crm, guest);
    const moment = emailOfStage[run.stage];
    const state = templates.get();
    const email = moment
      ? await renderEmailFor(crm, {
          guest,
          content,
          moment,
          template: state.templates[moment],
          settings: state.settings,
        })
      : null;
    const entry = run.stage_entry_id
      ? repo.stagesOf(run.guest_id).find((s) => s.id === run.stage_entry_id)
      : undefined;
    return {
      workflow: run.workflow,
      stage: run.stage,
      runId: run.id,
      trigger: run.trigger,
      transition: entry ? { from: entry.previous_stage, to: entry.stage, at: entry.entered_at } : null,
      guest,
      content: content ? { id: content.id, name: content.name, scheduledDate: content.scheduledDate } : null,
      email: email
        ? {
            moment: email.moment,
            to: email.to,
            subject: email.subject,
            body: email.body,
            missingValues: email.missingValues,
          }
        : null,
      sentAt: now().toISOString(),
    };
  }

  private handleFailure(run: WorkflowRunRow, error: unknown, context: JobContext): unknown {
    if (!(error instanceof PeerError)) {
      return this.fail(run, {
        message: error instanceof Error ? error.message : String(error),
        hint: null,
        httpStatus: null,
      });
    }
    const status = error.status ?? null;
    if (error.details.outcomeUnknown) {
      // The request reached n8n and got no answer: the workflow may be running. Never resend blindly.
      return this.fail(run, {
        message: `${error.message}: the workflow may have started`,
        hint: 'Check the executions of this workflow in n8n; run it again only if it did not start.',
        httpStatus: null,
      });
    }
    if (error.peer === 'crm' && status === 404) {
      return this.fail(run, {
        message: 'the guest no longer exists in the CRM',
        hint: null,
        httpStatus: null,
      });
    }
    if (!error.retryable) {
      const n8n = error.peer === 'automation' ? automationErrorBody(error) : { message: null, hint: null };
      return this.fail(run, {
        message: n8n.message ?? error.message,
        hint: n8n.hint ?? (status === 401 || status === 403 ? 'Check AUTOMATION_AUTH_HEADER.' : null),
        httpStatus: status,
      });
    }
    const lastAttempt = context.attempt >= context.job.max_attempts;
    if (lastAttempt) {
      return this.fail(run, {
        message: `${error.message} (gave up after ${context.attempt} attempts)`,
        hint: null,
        httpStatus: status,
      });
    }
    this.deps.repo.markRetrying(run.id, error.message, status, this.deps.now().toISOString());
    const retryAfterS = error.details.retryAfterS;
    if (retryAfterS !== undefined) throw new RetryLaterError(error.message, retryAfterS * 1000);
    throw error;
  }

  private fail(run: WorkflowRunRow, failure: Failure): { runId: number; status: 'failed' } {
    const { repo, activity, now } = this.deps;
    repo.markFailed(run.id, failure, now().toISOString());
    activity.record(
      'guests.workflow',
      'error',
      `${run.workflow} for ${named(guestOf(run))} failed: ${failure.message}${failure.hint ? ` — ${failure.hint}` : ''}`,
      {
        subject: guestOf(run),
        guestId: run.guest_id,
        runId: run.id,
        workflow: run.workflow,
        stage: run.stage,
        message: failure.message,
        hint: failure.hint,
        httpStatus: failure.httpStatus,
      },
    );
    return { runId: run.id, status: 'failed' };
  }
}
