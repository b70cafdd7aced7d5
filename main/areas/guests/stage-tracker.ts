import type { StageSource } from '../../../shared/api/guests.js';
import type { ItemOutcome } from '../../../shared/api/webhooks.js';
import type { EmailCheck, GuestHolds } from './holds.js';
import type { GuestsRepo, HoldRecord, StageRow, WorkflowRunRow } from './repo.js';
import type { ActivityLog } from '../../kernel/activity/activity-log.js';
import { decideStage, isWorkflowStage, workflowFor, type StageDecision } from './stages.js';
import { capitalize, named, recordSubject } from '../../kernel/activity/subjects.js';
import type { GuestWorkflows } from './workflows.js';

export interface Observation {
  guestId: string;
  guestName: string | null;
  /** The CRM's stage now (read from the CRM, never from a possibly stale item). */
  currentStage: string;
  /** The stage an update item carried, undefined when the update did not touch it. */
  itemStage: string | undefined;
  source: Exclude<StageSource, 'demo' | 'created'>;
  /** When the stage was entered (the item's modifiedAt when it carried the stage). */
  enteredAt: string;
  /**
   * The current stage's email as it would render now, checked before the transaction whenever
   * the observation could start its workflow (GuestHolds.needsCheck); null otherwise.
   */
  emailCheck: EmailCheck | null;
  /**
   * CRM catch-up found the current stage late (DESIGN §6.9): why, and the linked content. A
   * transition into that stage holds its workflow for the operator instead of starting it.
   */
  late: { note: string; contentId: string | null } | null;
}

export interface ObservationResult {
  decision: StageDecision;
  entry: StageRow | null;
  run: WorkflowRunRow | null;
  /** true when this observation queued the run; false when the workflow had already run for that stage. */
  queued: boolean;
  /** A transition into a stage the guest had been at before: its workflow is not started again. */
  enteredBefore: boolean;
  /** The workflow held instead of started: its email would render empty values (DESIGN §6.8). */
  hold: HoldRecord | null;
  /** A waiting hold of the stage the guest just left, ended unsent. */
  superseded: HoldRecord | null;
}

/**
 * The bridge's own record of guest stages (guest_stages) and the rule of DESIGN §6.1.5:
 * a workflow starts on a transition into its stage, once per guest and stage. Unrelated
 * changes, redeliveries and the CRM's echo of the bridge's own move find no transition.
 */
export class StageTracker {
  constructor(
    private readonly deps: {
      repo: GuestsRepo;
      workflows: GuestWorkflows;
      holds: GuestHolds;
      activity: ActivityLog;
      now: () => Date;
    },
  ) {}

  observe(observation: Observation): ObservationResult {
    const { repo, workflows, holds, now } = this.deps;
    const result = repo.transaction((): ObservationResult => {
      const last = repo.lastStage(observation.guestId);
      const decision = decideStage({
        itemStage: observation.itemStage,
        currentStage: observation.currentStage,
        lastKnown: last?.stage ?? null,
      });
      const record = (stage: string, previous: string | null, source: StageSource) =>
        repo.addStage(
          { guestId: observation.guestId, stage, previous, enteredAt: observation.enteredAt, source },
          now().toISOString(),
        );
      const nothing = { run: null, queued: false, enteredBefore: false, hold: null, superseded: null };
      switch (decision.kind) {
        case 'unchanged':
          return { decision, entry: null, ...nothing };
        case 'baseline':
          return { decision, entry: record(decision.stage, null, 'fetched'), ...nothing };
        case 'stale':
          return {
            decision,
            entry: decision.recordPassed
              ? record(decision.passed, last?.stage ?? null, observation.source)
              : null,
            ...nothing,
          };
        case 'transition': {
          // Once per guest and stage: a return to a stage (a correction, a step back) starts nothing.
          const enteredBefore = repo.stagesOf(observation.guestId).some((row) => row.stage === decision.to);
          const superseded = holds.supersede(observation.guestId, decision.to);
          const entry = record(decision.to, decision.from, observation.source);
          const moved = { ...nothing, enteredBefore, superseded };
          if (!isWorkflowStage(decision.to)) return { decision, entry, ...moved };
          if (enteredBefore) {
            const run = repo.autoRun(observation.guestId, decision.to) ?? null;
            return { decision, entry, ...moved, run };
          }
          if (observation.late) {
            const hold = holds.holdLate(entry, decision.to, observation.guestName, observation.late);
            return { decision, entry, ...moved, hold };
          }
          const check = observation.emailCheck;
          if (check && check.missing.length > 0) {
            const hold = holds.hold(entry, decision.to, observation.guestName, check);
            return { decision, entry, ...moved, hold };
          }
          const { run, queued } = workflows.queueStageChange(entry, decision.to, observation.guestName);
          return { decision, entry, ...moved, run, queued };
        }
      }
    });
    this.report(observation, result);
    return result;
  }

  /** A guest-created item: the first stage, with no workflow (spec §3.3 starts them on updates). */
  recordCreated(guestId: string, stage: string, createdAt: string): StageRow | null {
    const { repo, now } = this.deps;
    return repo.transaction(() => {
      if (repo.lastStage(guestId)) return null;
      return repo.addStage(
        { guestId, stage, previous: null, enteredAt: createdAt, source: 'created' },
        now().toISOString(),
      );
    });
  }

  private report(observation: Observation, result: ObservationResult): void {
    const { activity, holds } = this.deps;
    const subject = recordSubject('guest', observation.guestId, observation.guestName);
    const who = capitalize(named(subject));
    const data = {
      subject,
      guestId: observation.guestId,
      source: observation.source,
      ...(result.run ? { runId: result.run.id, workflow: result.run.workflow } : {}),
    };
    const { decision } = result;
    if (decision.kind === 'transition') {
      const move = `${who} moved ${decision.from ? `from ${decision.from} ` : ''}to ${decision.to}${decision.from ? '' : ' (new to the bridge)'}`;
      const name = workflowFor(decision.to);
      const workflow = result.hold
        ? result.hold.reason === 'late'
          ? `; ${result.hold.workflow} held, not sent late: ${result.hold.note ?? 'found late'}`
          : `; ${result.hold.workflow} held, waiting for: ${result.hold.missing.join(', ')}`
        : result.run
          ? result.queued
            ? `; ${result.run.workflow} queued`
            : `; ${result.run.workflow} already ran for this stage (run ${result.run.id}, ${result.run.status}): not started again`
          : name && result.enteredBefore
            ? `; ${name} not started: the guest was at ${decision.to} before (run it from the Guests page if it should)`
            : '';
      activity.record('guests.stage', 'info', `${move}${workflow}`, {
        ...data,
        from: decision.from,
        to: decision.to,
      });
      if (result.superseded) holds.report(result.superseded, 'superseded', decision.to);
      if (result.hold) holds.report(result.hold, 'held');
    } else if (decision.kind === 'stale' && workflowFor(decision.passed)) {
      activity.record(
        'guests.stage',
        'warn',
        `${who} passed through ${decision.passed} and is now at ${decision.current}: ${workflowFor(decision.passed)} not started (run it from the Guests page if it should)`,
        { ...data, passed: decision.passed, current: decision.current },
      );
    }
  }
}

/** The webhook outcome stored for an observation (and answered to the CRM). */
export function outcomeOf(result: ObservationResult): ItemOutcome {
  const { decision, run, queued } = result;
  switch (decision.kind) {
    case 'unchanged':
      return { success: true, skipped: true, reason: `stage unchanged (${decision.stage})` };
    case 'baseline':
      return { success: true, skipped: true, reason: `stage ${decision.stage} recorded (first sight)` };
    case 'stale':
      return {
        success: true,
        skipped: true,
        reason: `stale: the guest passed through ${decision.passed} and is now at ${decision.current}`,
      };
    case 'transition':
      if (result.hold) {
        return {
          success: true,
          stage: decision.to,
          from: decision.from,
          workflow: result.hold.workflow,
          held: true,
          missing: result.hold.missing,
        };
      }
      if (!run) {
        return {
          success: true,
          stage: decision.to,
          from: decision.from,
          workflow: null,
          ...(result.enteredBefore && workflowFor(decision.to) ? { enteredBefore: true } : {}),
        };
      }
      return {
        success: true,
        stage: decision.to,
        from: decision.from,
        workflow: run.workflow,
        runId: run.id,
        ...(queued ? { queued: true } : { alreadyRan: true }),
      };
  }
}
