import {
  emailOfStage,
  workflowOfStage,
  type EmailMoment,
  type HoldStatus,
  type WorkflowStage,
} from '../../../shared/api/guests.js';
import type { ActivityLog } from '../../kernel/activity/activity-log.js';
import { AppError } from '../../kernel/app-error.js';
import type { CrmClient, CrmRecord } from '../../peers/crm.js';
import { linkedContent, renderEmailFor } from './guest-data.js';
import type { GuestsRepo, HoldRecord, StageRow, WorkflowRunRow } from './repo.js';
import type { TemplateStore } from './template-store.js';
import { capitalize, named, recordSubject } from '../../kernel/activity/subjects.js';
import type { GuestWorkflows } from './workflows.js';

/** What a stage's email would lack for a guest right now. */
export interface EmailCheck {
  moment: EmailMoment;
  /** Variables that would render empty (a settings fallback counts as present). */
  missing: string[];
  contentId: string | null;
}

export interface HoldResult {
  hold: HoldRecord;
  /** The run queued by this check or choice; null when the hold still waits (or had ended before). */
  run: WorkflowRunRow | null;
}

type HoldOutcome = 'held' | 'waiting' | 'released' | 'sent-anyway' | 'superseded';

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((value, index) => value === b[index]);

/**
 * DESIGN §6.8: a stage workflow whose email would render empty variables is held on the guest,
 * not started. The hold is checked again on every CRM event for the guest or its linked content
 * and when the operator asks; it starts the workflow once when nothing is missing, or when the
 * operator sends it anyway. Starting goes through the stage-change run, so the
 * once-per-guest-and-stage rule of the workflows holds for held ones too.
 */
export class GuestHolds {
  constructor(
    private readonly deps: {
      repo: GuestsRepo;
      crm: CrmClient | null;
      workflows: GuestWorkflows;
      templates: TemplateStore;
      activity: ActivityLog;
      now: () => Date;
    },
  ) {}

  /**
   * Whether observing the guest at `stage` could start an email-sending workflow: the guest has
   * not been at that stage before (a return starts nothing), so its email must be checked first.
   */
  needsCheck(guestId: string, stage: string): stage is WorkflowStage {
    const moment = emailOfStage[stage as WorkflowStage];
    return moment !== undefined && !this.deps.repo.stagesOf(guestId).some((entry) => entry.stage === stage);
  }

  /** Renders the stage's email for the guest as the CRM has it now and lists what would be empty. */
  async check(crm: CrmClient, guest: CrmRecord, stage: WorkflowStage): Promise<EmailCheck | null> {
    const moment = emailOfStage[stage];
    if (!moment) return null;
    const content = await linkedContent(crm, guest);
    const state = this.deps.templates.get();
    const email = await renderEmailFor(crm, {
      guest,
      content,
      moment,
      template: state.templates[moment],
      settings: state.settings,
    });
    return { moment, missing: email.missingValues, contentId: text(guest.contentProductionId) };
  }

  /** Holds the stage-change workflow of `entry`. Call inside the transaction that records the entry. */
  hold(
    entry: StageRow,
    stage: WorkflowStage,
    guestName: string | null,
    check: EmailCheck,
  ): HoldRecord | null {
    const { repo, now } = this.deps;
    const hold = repo.insertHold(
      {
        guestId: entry.guest_id,
        guestName,
        stage,
        workflow: workflowOfStage[stage],
        moment: check.moment,
        stageEntryId: entry.id,
        contentId: check.contentId,
        missing: check.missing,
        reason: 'missing-values',
        note: null,
      },
      now().toISOString(),
    );
    return hold ?? null;
  }

  /**
   * DESIGN §6.9: holds the stage-change workflow of `entry`, found late by CRM catch-up; `note`
   * says why. No re-check releases it: only the operator (send anyway), or the guest moving on
   * (superseded). Call inside the transaction that records the entry.
   */
  holdLate(
    entry: StageRow,
    stage: WorkflowStage,
    guestName: string | null,
    late: { note: string; contentId: string | null },
  ): HoldRecord | null {
    const { repo, now } = this.deps;
    const hold = repo.insertHold(
      {
        guestId: entry.guest_id,
        guestName,
        stage,
        workflow: workflowOfStage[stage],
        moment: emailOfStage[stage] ?? null,
        stageEntryId: entry.id,
        contentId: late.contentId,
        missing: [],
        reason: 'late',
        note: late.note,
      },
      now().toISOString(),
    );
    return hold ?? null;
  }

  /**
   * A guest entering another stage ends its waiting hold unsent: the email of a stage the guest
   * has left would arrive out of place. Call inside the transaction that records the entry.
   */
  supersede(guestId: string, enteredStage: string): HoldRecord | null {
    const { repo, now } = this.deps;
    const waiting = repo.waitingHoldOf(guestId);
    if (!waiting || waiting.stage === enteredStage) return null;
    return repo.resolveHold(waiting.id, 'superseded', waiting.missing, now().toISOString()) ? waiting : null;
  }

  /** After a CRM event for the guest (its current record): re-checks its waiting hold, if any. */
  async recheckGuest(guest: CrmRecord): Promise<HoldResult | null> {
    const waiting = this.deps.repo.waitingHoldOf(guest.id);
    return waiting ? this.recheck(waiting, guest) : null;
  }

  /** After a CRM event for a content record: re-checks the waiting holds of the guests linked to it. */
  async recheckContent(contentId: string): Promise<{ checked: number; started: number }> {
    const crm = this.deps.crm;
    const holds = this.deps.repo.waitingHoldsOfContent(contentId);
    if (!crm || holds.length === 0) return { checked: 0, started: 0 };
    let started = 0;
    for (const hold of holds) {
      const guest = await crm.find('GuestBooking', hold.guestId);
      // A guest deleted in the CRM keeps its hold: nothing can be sent to it anyway.
      if (!guest) continue;
      if ((await this.recheck(hold, guest)).run) started += 1;
    }
    return { checked: holds.length, started };
  }

  /**
   * CRM catch-up found the guest deleted (404, the CRM's identity confirmed, DESIGN §6.9): its
   * waiting hold ends unsent, so the operator is no longer asked about a guest who is gone.
   */
  vanished(guestId: string): HoldRecord | null {
    const { repo, now } = this.deps;
    const waiting = repo.waitingHoldOf(guestId);
    if (!waiting || !repo.resolveHold(waiting.id, 'superseded', waiting.missing, now().toISOString()))
      return null;
    const after = repo.holdOf(guestId, waiting.stage) ?? waiting;
    this.report(after, 'superseded', '(deleted in the CRM)');
    return after;
  }

  /** The operator's "check again": reads the guest now, starts the workflow if nothing is missing. */
  async recheckOnRequest(guestId: string, stage: WorkflowStage): Promise<HoldResult> {
    const hold = this.requireHold(guestId, stage);
    if (hold.status !== 'waiting') return { hold, run: null };
    return this.recheck(hold, await this.readGuest(guestId));
  }

  /**
   * The operator's explicit "send anyway": starts the held workflow with what is still missing,
   * recorded in activity. Checked once more first: values that arrived meanwhile make it a plain
   * release, and a guest that moved on makes it a conflict.
   */
  async sendAnyway(guestId: string, stage: WorkflowStage): Promise<HoldResult> {
    const hold = this.requireHold(guestId, stage);
    if (hold.status !== 'waiting') throw this.ended(hold.workflow, hold.status);
    const checked = await this.recheck(hold, await this.readGuest(guestId));
    if (checked.hold.status === 'superseded') throw this.ended(hold.workflow, 'superseded');
    if (checked.hold.status !== 'waiting') return checked;
    return this.start(checked.hold, 'sent-anyway', checked.hold.missing);
  }

  /** Refuses a "run again" that would go around a waiting hold (and later send a second email). */
  assertNotHeld(guestId: string, stage: WorkflowStage): void {
    const hold = this.deps.repo.holdOf(guestId, stage);
    if (hold?.status === 'waiting') {
      throw AppError.conflict(
        `${hold.workflow} for this guest is held, waiting for: ${hold.missing.join(', ')}. Fill them in the CRM, or send it anyway from the Guests page.`,
      );
    }
  }

  private async recheck(hold: HoldRecord, guest: CrmRecord): Promise<HoldResult> {
    const { repo, now } = this.deps;
    const crm = this.requireCrm();
    const stage = text(guest.stage);
    if (stage !== hold.stage) {
      const ended = repo.resolveHold(hold.id, 'superseded', hold.missing, now().toISOString());
      const after = repo.holdOf(hold.guestId, hold.stage) ?? hold;
      if (ended) this.report(after, 'superseded', stage);
      return { hold: after, run: null };
    }
    if (hold.reason === 'late') {
      // Found late (§6.9): still the guest's stage, and only the operator may send it now.
      repo.markHoldChecked(hold.id, hold.missing, hold.contentId, now().toISOString());
      return { hold: repo.holdOf(hold.guestId, hold.stage) ?? hold, run: null };
    }
    const check = await this.check(crm, guest, hold.stage);
    const missing = check?.missing ?? [];
    if (missing.length === 0) return this.start(hold, 'released', hold.missing);
    repo.markHoldChecked(hold.id, missing, check?.contentId ?? null, now().toISOString());
    const after = repo.holdOf(hold.guestId, hold.stage) ?? hold;
    if (after.status === 'waiting' && !sameList(missing, hold.missing)) this.report(after, 'waiting');
    return { hold: after, run: null };
  }

  /** Ends the hold and queues its stage-change run, once: a hold that already ended queues nothing. */
  private start(hold: HoldRecord, how: 'released' | 'sent-anyway', missing: readonly string[]): HoldResult {
    const { repo, workflows, now } = this.deps;
    const run = repo.transaction(() => {
      if (!repo.resolveHold(hold.id, how, missing, now().toISOString())) return null;
      const entry = repo.stagesOf(hold.guestId).find((row) => row.id === hold.stageEntryId);
      if (!entry) throw new Error(`stage entry ${hold.stageEntryId} of hold ${hold.id} is missing`);
      const queued = workflows.queueStageChange(entry, hold.stage, hold.guestName).run;
      repo.setHoldRun(hold.id, queued.id);
      return queued;
    });
    const after = repo.holdOf(hold.guestId, hold.stage) ?? hold;
    if (run) this.report(after, how);
    return { hold: after, run };
  }

  /** The guests.hold activity event (and the guests.stage message names the hold on entry). */
  report(hold: HoldRecord, outcome: HoldOutcome, movedTo?: string | null): void {
    const subject = recordSubject('guest', hold.guestId, hold.guestName);
    const who = capitalize(named(subject));
    const missing = hold.missing.join(', ');
    const message: Record<HoldOutcome, string> =
      hold.reason === 'late'
        ? this.lateMessages(who, hold, movedTo)
        : {
            held: `${who}: ${hold.workflow} held, waiting for: ${missing}`,
            waiting: `${who}: ${hold.workflow} still held, waiting for: ${missing}`,
            released: `${who}: ${hold.workflow} released, the CRM now has: ${missing}`,
            'sent-anyway': `${who}: ${hold.workflow} sent anyway by the operator, without: ${missing}`,
            superseded: `${who}: ${hold.workflow} not sent: the guest moved on to ${movedTo ?? 'another stage'} while it waited for ${missing} (run it from the Guests page if it should)`,
          };
    this.deps.activity.record(
      'guests.hold',
      outcome === 'released' || outcome === 'waiting' ? 'info' : 'warn',
      message[outcome],
      {
        subject,
        guestId: hold.guestId,
        stage: hold.stage,
        workflow: hold.workflow,
        missing: hold.missing,
        reason: hold.reason,
        outcome,
        ...(hold.runId !== null ? { runId: hold.runId } : {}),
      },
    );
  }

  private lateMessages(who: string, hold: HoldRecord, movedTo?: string | null): Record<HoldOutcome, string> {
    const why = hold.note ?? 'found late';
    return {
      held: `${who}: ${hold.workflow} held, not sent late: ${why}. Send it anyway from the Guests page if it should still go`,
      waiting: `${who}: ${hold.workflow} still held (found late: ${why})`,
      released: `${who}: ${hold.workflow} released`,
      'sent-anyway': `${who}: ${hold.workflow} sent anyway by the operator, although found late (${why})`,
      superseded: `${who}: ${hold.workflow} not sent: the guest moved on to ${movedTo ?? 'another stage'} while it was held (found late: ${why})`,
    };
  }

  private requireHold(guestId: string, stage: WorkflowStage): HoldRecord {
    const hold = this.deps.repo.holdOf(guestId, stage);
    if (!hold) throw AppError.notFound(`this guest has no held ${stage} workflow`);
    return hold;
  }

  private ended(workflow: string, status: Exclude<HoldStatus, 'waiting'>): AppError {
    const how: Record<Exclude<HoldStatus, 'waiting'>, string> = {
      released: 'it started when the CRM filled the values',
      'sent-anyway': 'it was already sent anyway',
      superseded:
        'the guest moved on to another stage before it was sent (run it again from the timeline if it should go)',
    };
    return AppError.conflict(`${workflow} is no longer held: ${how[status]}`);
  }

  private async readGuest(guestId: string): Promise<CrmRecord> {
    const guest = await this.requireCrm().find('GuestBooking', guestId);
    if (!guest) throw AppError.notFound(`guest ${guestId} not found in the CRM`);
    return guest;
  }

  private requireCrm(): CrmClient {
    if (!this.deps.crm) throw AppError.notConfigured('the CRM', 'CRM_URL');
    return this.deps.crm;
  }
}
