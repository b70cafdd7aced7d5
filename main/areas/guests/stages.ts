import {
  guestStages,
  workflowOfStage,
  workflowStages,
  type WorkflowStage,
} from '../../../shared/api/guests.js';

export function isWorkflowStage(value: unknown): value is WorkflowStage {
  return typeof value === 'string' && (workflowStages as readonly string[]).includes(value);
}

/** Position in the pipeline (Outreach 0 … Published 5), -1 for a value outside it. */
export function stageIndex(stage: string): number {
  return (guestStages as readonly string[]).indexOf(stage);
}

export function workflowFor(stage: string): string | null {
  return isWorkflowStage(stage) ? workflowOfStage[stage] : null;
}

/**
 * What one guest-updated item means, judged against the CRM's current record and the bridge's
 * own last known stage (DESIGN §6.1.5). Update items are sparse: `itemStage` is undefined when
 * the update did not touch the stage.
 */
export type StageDecision =
  /** The guest is at a new stage: record it; its workflow starts if it never ran for this guest. */
  | { kind: 'transition'; from: string | null; to: string }
  /** Nothing moved (an unrelated field, a redelivery, the CRM's echo of the bridge's own move). */
  | { kind: 'unchanged'; stage: string }
  /** The item's stage is no longer the guest's: it passed through it. Record, start nothing. */
  | { kind: 'stale'; passed: string; current: string; recordPassed: boolean }
  /** First sight of a guest through an update that did not touch the stage: remember where it is. */
  | { kind: 'baseline'; stage: string };

export function decideStage(input: {
  itemStage: string | undefined;
  currentStage: string;
  lastKnown: string | null;
}): StageDecision {
  const { itemStage, currentStage, lastKnown } = input;
  if (itemStage !== undefined && itemStage !== currentStage) {
    return { kind: 'stale', passed: itemStage, current: currentStage, recordPassed: itemStage !== lastKnown };
  }
  if (lastKnown !== null) {
    return currentStage === lastKnown
      ? { kind: 'unchanged', stage: currentStage }
      : { kind: 'transition', from: lastKnown, to: currentStage };
  }
  return itemStage !== undefined
    ? { kind: 'transition', from: null, to: currentStage }
    : { kind: 'baseline', stage: currentStage };
}
