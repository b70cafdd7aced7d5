import type {
  EmailMoment,
  EmailTemplate,
  GuestStage,
  GuestSummary,
  TemplateSettings,
  WorkflowStage,
} from '../../../shared/api/guests.js';
import type { ItemOutcome, WebhookItem } from '../../../shared/api/webhooks.js';
import type { CrmClient, CrmRecord } from '../../peers/crm.js';
import { AppError } from '../../kernel/app-error.js';
import {
  toGuestHold,
  toWorkflowRun,
  type GuestsRepo,
  type HoldRecord,
  type StageRow,
  type WorkflowRunRow,
} from './repo.js';
import type { ActivityLog } from '../../kernel/activity/activity-log.js';
import { linkedContent, renderEmailFor, type RenderedEmail } from './guest-data.js';
import type { GuestHolds } from './holds.js';
import { lateWorkflowReason } from './late-workflows.js';
import { isWorkflowStage } from './stages.js';
import { summarisePipeline, type PipelineGuest, type PipelineRange } from './pipeline.js';
import { outcomeOf, type StageTracker } from './stage-tracker.js';
import type { TemplateStore } from './template-store.js';
import type { GuestWorkflows } from './workflows.js';

export interface GuestsServiceDeps {
  repo: GuestsRepo;
  crm: CrmClient | null;
  tracker: StageTracker;
  workflows: GuestWorkflows;
  holds: GuestHolds;
  templates: TemplateStore;
  activity: ActivityLog;
  now: () => Date;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** Guests: the webhook handlers, the directory the dashboard reads, the pipeline and template previews. */
export class GuestsService {
  constructor(private readonly deps: GuestsServiceDeps) {}

  /** guest-created: remember the first stage and when; nothing else (spec §3.3 acts on updates). */
  readonly onCreated = async (item: WebhookItem): Promise<ItemOutcome> => {
    const stage = text(item.stage) ?? 'Outreach';
    const entry = this.deps.tracker.recordCreated(
      item.id,
      stage,
      text(item.createdAt) ?? this.deps.now().toISOString(),
    );
    return entry
      ? { success: true, stage, recorded: true }
      : { success: true, skipped: true, reason: 'the bridge already knows this guest' };
  };

  /**
   * guest-updated: the item is a sparse, possibly stale snapshot. The guest's current record
   * is read from the CRM and compared with the bridge's last known stage (DESIGN §6.1.5).
   */
  readonly onUpdated = (item: WebhookItem): Promise<ItemOutcome> => this.observeCurrent(item, 'webhook');

  /**
   * CRM catch-up found the guest changed (DESIGN §6.9): handled as a guest-updated without the
   * stage, and a transition it finds is recorded as found by catch-up (issue #22.6).
   */
  readonly onCaughtUp = (id: string): Promise<ItemOutcome> => this.observeCurrent({ id }, 'catch-up');

  private async observeCurrent(item: WebhookItem, source: 'webhook' | 'catch-up'): Promise<ItemOutcome> {
    const crm = this.deps.crm;
    if (!crm) return { success: true, skipped: true, reason: 'no CRM configured: the guest cannot be read' };
    const guest = await crm.find('GuestBooking', item.id);
    if (!guest) return { success: true, skipped: true, reason: 'the guest no longer exists in the CRM' };
    const current = text(guest.stage);
    if (!current) return { success: true, skipped: true, reason: 'the guest has no stage' };
    const itemStage = text(item.stage) ?? undefined;
    const result = this.deps.tracker.observe({
      guestId: guest.id,
      guestName: text(guest.name),
      currentStage: current,
      itemStage,
      source,
      enteredAt: (itemStage !== undefined ? text(item.modifiedAt) : null) ?? this.deps.now().toISOString(),
      emailCheck: await this.emailCheckBeforeObserving(crm, guest, current),
      late: source === 'catch-up' ? this.lateness(guest, current) : null,
    });
    // Every event for the guest re-checks its waiting hold (DESIGN §6.8): this one may have filled it.
    const rechecked = result.hold ? null : await this.deps.holds.recheckGuest(guest);
    const outcome = outcomeOf(result);
    return rechecked?.run ? { ...outcome, heldWorkflowStarted: rechecked.run.workflow } : outcome;
  }

  /** DESIGN §6.9: why catch-up finds the guest's current stage too late for its workflow, if it does. */
  private lateness(guest: CrmRecord, stage: string) {
    if (!isWorkflowStage(stage)) return null;
    const note = lateWorkflowReason({
      stage,
      modifiedAt: text(guest.modifiedAt),
      scheduledDate: text(guest.scheduledDate),
      now: this.deps.now(),
    });
    return note === null ? null : { note, contentId: text(guest.contentProductionId) };
  }

  /** The email check of the current stage, when observing it could start that stage's workflow. */
  private async emailCheckBeforeObserving(crm: CrmClient, guest: CrmRecord, stage: string) {
    return this.deps.holds.needsCheck(guest.id, stage) ? this.deps.holds.check(crm, guest, stage) : null;
  }

  /** Moves a guest in the CRM from the dashboard; the bridge records it and starts the workflow once. */
  async moveStage(guestId: string, stage: GuestStage) {
    const crm = this.requireCrm();
    const before = await crm.find('GuestBooking', guestId);
    if (!before) throw AppError.notFound(`guest ${guestId} not found in the CRM`);
    const changed = before.stage !== stage;
    const guest = changed ? await crm.update('GuestBooking', guestId, { stage }) : before;
    const currentStage = text(guest.stage) ?? stage;
    const result = this.deps.tracker.observe({
      guestId,
      guestName: text(guest.name),
      currentStage,
      itemStage: changed ? stage : undefined,
      source: 'dashboard',
      enteredAt: (changed ? text(guest.modifiedAt) : null) ?? this.deps.now().toISOString(),
      emailCheck: await this.emailCheckBeforeObserving(crm, guest, currentStage),
      late: null, // the operator's own move is never late
    });
    const rechecked = result.hold ? null : await this.deps.holds.recheckGuest(guest);
    const run = rechecked?.run ?? (result.run && result.queued ? result.run : null);
    const hold = result.hold ?? (rechecked?.hold.status === 'waiting' ? rechecked.hold : null);
    return {
      guest: this.summarise(guest, this.deps.repo.stagesOf(guestId)),
      changed,
      run: run ? toWorkflowRun(run) : null,
      hold: hold ? toGuestHold(hold) : null,
    };
  }

  async checkHold(guestId: string, stage: WorkflowStage) {
    const { hold, run } = await this.deps.holds.recheckOnRequest(guestId, stage);
    return { hold: toGuestHold(hold), run: run ? toWorkflowRun(run) : null };
  }

  async sendHeldAnyway(guestId: string, stage: WorkflowStage) {
    const { hold, run } = await this.deps.holds.sendAnyway(guestId, stage);
    return { hold: toGuestHold(hold), run: run ? toWorkflowRun(run) : null };
  }

  /** The workflows waiting for values, oldest first (the Overview's count, no CRM call). */
  holds() {
    return this.deps.repo.waitingHolds().map(toGuestHold);
  }

  async runAgain(guestId: string, stage: WorkflowStage) {
    const { repo, crm } = this.deps;
    this.deps.holds.assertNotHeld(guestId, stage);
    const reached = repo.stagesOf(guestId).some((entry) => entry.stage === stage);
    let name: string | null = repo.runsOf(guestId).at(-1)?.guest_name ?? null;
    if (!reached || name === null) {
      if (!crm && !reached) throw AppError.notConfigured('the CRM', 'CRM_URL');
      const guest = crm ? await crm.find('GuestBooking', guestId) : null;
      if (!guest && !reached) throw AppError.notFound(`guest ${guestId} not found in the CRM`);
      if (guest && !reached && guest.stage !== stage) {
        throw AppError.conflict(
          `the guest has never been at ${stage} (now ${String(guest.stage)}): move the guest there instead`,
        );
      }
      name = text(guest?.name) ?? name;
    }
    return toWorkflowRun(this.deps.workflows.runAgain(guestId, stage, name));
  }

  async list(): Promise<GuestSummary[]> {
    const guests = await this.requireCrm().listAll('GuestBooking');
    const history = this.historyByGuest();
    const runs = new Map<string, WorkflowRunRow[]>();
    for (const run of this.deps.repo.latestRuns())
      runs.set(run.guest_id, [...(runs.get(run.guest_id) ?? []), run]);
    const holds = new Map(this.deps.repo.waitingHolds().map((hold) => [hold.guestId, hold]));
    return guests.map((guest) =>
      this.summarise(
        guest,
        history.get(guest.id) ?? [],
        runs.get(guest.id) ?? [],
        holds.get(guest.id) ?? null,
      ),
    );
  }

  async timeline(guestId: string) {
    const { repo } = this.deps;
    const guest = await this.requireCrm().find('GuestBooking', guestId);
    if (!guest) throw AppError.notFound(`guest ${guestId} not found in the CRM`);
    const stages = repo.stagesOf(guestId);
    const contentId = text(guest.contentProductionId);
    return {
      guest: this.summarise(guest, stages),
      stages: stages.map((row) => ({
        id: row.id,
        stage: row.stage,
        previousStage: row.previous_stage,
        enteredAt: row.entered_at,
        source: row.source,
      })),
      runs: repo.runsOf(guestId).map(toWorkflowRun),
      contentStages: contentId
        ? repo.contentStagesOf(contentId).map((row) => ({
            id: row.id,
            contentId: row.content_id,
            stage: row.stage,
            previousStage: row.previous_stage,
            enteredAt: row.entered_at,
            source: row.source,
          }))
        : [],
    };
  }

  async pipeline(range: PipelineRange) {
    const guests = await this.requireCrm().listAll('GuestBooking', {
      select: ['id', 'name', 'stage', 'createdAt', 'scheduledDate'],
    });
    const history = this.historyByGuest();
    const pipelineGuests: PipelineGuest[] = guests.map((guest) => ({
      id: guest.id,
      stage: text(guest.stage) ?? '',
      createdAt: text(guest.createdAt),
      scheduledDate: text(guest.scheduledDate),
      history: (history.get(guest.id) ?? []).map((row) => ({ stage: row.stage, enteredAt: row.entered_at })),
    }));
    return summarisePipeline(pipelineGuests, range, this.deps.now());
  }

  async preview(input: {
    moment: EmailMoment;
    guestId: string;
    template?: EmailTemplate | undefined;
    settings?: Partial<TemplateSettings> | undefined;
  }): Promise<RenderedEmail> {
    const crm = this.requireCrm();
    const guest = await crm.find('GuestBooking', input.guestId);
    if (!guest) throw AppError.notFound(`guest ${input.guestId} not found in the CRM`);
    const state = this.deps.templates.get();
    return renderEmailFor(crm, {
      guest,
      content: await linkedContent(crm, guest),
      moment: input.moment,
      template: input.template ?? state.templates[input.moment],
      settings: { ...state.settings, ...input.settings },
    });
  }

  private requireCrm(): CrmClient {
    if (!this.deps.crm) throw AppError.notConfigured('the CRM', 'CRM_URL');
    return this.deps.crm;
  }

  private historyByGuest(): Map<string, StageRow[]> {
    const byGuest = new Map<string, StageRow[]>();
    for (const row of this.deps.repo.allStages()) {
      const list = byGuest.get(row.guest_id);
      if (list) list.push(row);
      else byGuest.set(row.guest_id, [row]);
    }
    return byGuest;
  }

  /** `runs`: the guest's runs, oldest first (default: read); the latest per stage is kept. */
  private summarise(
    guest: CrmRecord,
    history: readonly StageRow[],
    runs: readonly WorkflowRunRow[] = this.deps.repo.runsOf(guest.id),
    hold: HoldRecord | null = this.deps.repo.waitingHoldOf(guest.id) ?? null,
  ): GuestSummary {
    const stage = text(guest.stage) ?? '';
    const last = history.at(-1);
    const latest = new Map<string, WorkflowRunRow>();
    for (const run of runs) latest.set(run.stage, run);
    return {
      id: guest.id,
      name: text(guest.name) ?? guest.id,
      email: text(guest.email),
      stage,
      scheduledDate: text(guest.scheduledDate),
      timezone: text(guest.timezone),
      topics: text(guest.topics),
      contentProductionId: text(guest.contentProductionId),
      contentProductionName: text(guest.contentProductionName),
      createdAt: text(guest.createdAt),
      stageEnteredAt: last && last.stage === stage ? last.entered_at : null,
      workflows: [...latest.values()].map(toWorkflowRun),
      hold: hold ? toGuestHold(hold) : null,
    };
  }
}
