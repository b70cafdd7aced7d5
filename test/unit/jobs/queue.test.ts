import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { ActivityLog } from '../../../main/kernel/activity/activity-log.js';
import { createActivityRepo } from '../../../main/kernel/activity/repo.js';
import { groupCommitOf } from '../../../main/kernel/commit-group.js';
import { openDatabase, type Db } from '../../../main/kernel/db.js';
import { crmRecordLane } from '../../../main/kernel/jobs/lane.js';
import {
  JobQueue,
  PermanentJobError,
  RetryLaterError,
  type RunEnd,
} from '../../../main/kernel/jobs/queue.js';
import { createJobsRepo } from '../../../main/kernel/jobs/repo.js';
import { eventually } from '../../support/wait.js';
import { tempDir, type TempDir } from '../../support/temp-dir.js';

/** A record's lane, as the areas make them. */
const laneOf = (name: string) => crmRecordLane('Record', name);

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function queue(concurrency = 2): { jobs: JobQueue; db: Db } {
  const dir: TempDir = tempDir('queue');
  const db = openDatabase(path.join(dir.path, 'bridge.sqlite'));
  const logger = pino({ level: 'silent' });
  const jobs = new JobQueue({
    repo: createJobsRepo(db),
    activity: new ActivityLog(createActivityRepo(db), logger),
    logger,
    concurrency,
    groupCommit: groupCommitOf(db),
    backoff: { baseMs: 20, maxMs: 20, jitter: 0 },
  });
  cleanup.push(
    () => dir.remove(),
    () => void db.close(),
    () => jobs.stop(100),
  );
  return { jobs, db };
}

describe('job queue (kernel/jobs/queue.ts): fresh claims, slots and lanes', () => {
  it('runs the jobs of one lane one at a time, in order, and others beside them within the slots', async () => {
    const { jobs } = queue(2);
    const log: string[] = [];
    let running = 0;
    let most = 0;
    jobs.register<{ name: string }>('work', async ({ name }) => {
      running++;
      most = Math.max(most, running);
      log.push(`start ${name}`);
      await sleep(15);
      log.push(`end ${name}`);
      running--;
    });
    jobs.start();
    const ids = ['a1', 'a2', 'a3'].map(
      (name) => jobs.enqueue({ kind: 'work', payload: { name }, lane: laneOf('A') }).id,
    );
    ids.push(...['b1', 'b2'].map((name) => jobs.enqueue({ kind: 'work', payload: { name } }).id));
    const done = await Promise.all(ids.map((id) => jobs.waitFor(id, 5_000)));
    expect(done.map((job) => job?.status)).toEqual(['done', 'done', 'done', 'done', 'done']);
    const lane = log.filter((line) => line.includes(' a'));
    expect(lane).toEqual(['start a1', 'end a1', 'start a2', 'end a2', 'start a3', 'end a3']);
    expect(most).toBe(2);
  });

  it('a lane job that waits for a retry of the job before it runs after that retry, not before', async () => {
    const { jobs } = queue(4);
    const log: string[] = [];
    let failOnce = true;
    jobs.register<{ name: string }>('step', async ({ name }) => {
      if (name === 'first' && failOnce) {
        failOnce = false;
        throw new RetryLaterError('not yet', 60);
      }
      log.push(name);
    });
    jobs.start();
    const first = jobs.enqueue({ kind: 'step', payload: { name: 'first' }, lane: laneOf('R') });
    await eventually(() => jobs.list({ limit: 5 }).some((job) => job.lastError === 'not yet'));
    const second = jobs.enqueue({ kind: 'step', payload: { name: 'second' }, lane: laneOf('R') });
    expect((await jobs.waitFor(second.id, 5_000))?.status).toBe('done');
    expect((await jobs.waitFor(first.id, 5_000))?.status).toBe('done');
    expect(log).toEqual(['first', 'second']);
  });

  it('a job of a lane held outside the queue (withLane) runs once the holder is done', async () => {
    const { jobs } = queue(2);
    const log: string[] = [];
    jobs.register('hold', async () => void log.push('job'));
    jobs.start();
    let release!: () => void;
    const holding = jobs.withLane(laneOf('L'), () => new Promise<void>((resolve) => (release = resolve)));
    const job = jobs.enqueue({ kind: 'hold', payload: {}, lane: laneOf('L') });
    await sleep(50);
    expect(log).toEqual([]);
    log.push('holder done');
    release();
    await holding;
    expect((await jobs.waitFor(job.id, 5_000))?.status).toBe('done');
    expect(log).toEqual(['holder done', 'job']);
  });

  it('a kind registered as waiting on nothing runs while every slot is held; the others wait for one', async () => {
    const { jobs } = queue(1);
    let releasePeer!: () => void;
    const peer = new Promise<void>((resolve) => (releasePeer = resolve));
    const log: string[] = [];
    const work = async ({ name }: { name: string }) => {
      log.push(`start ${name}`);
      if (name !== 'decided') await peer;
      log.push(`end ${name}`);
    };
    jobs.register('item', work);
    // The rule is the kind's, never asked of the payload while the queue picks a job (issue #36.2).
    jobs.register('no-peer', work, { holdsSlot: false });
    jobs.start();
    const slow = jobs.enqueue({ kind: 'item', payload: { name: 'slow' } });
    const waiting = jobs.enqueue({ kind: 'item', payload: { name: 'waiting' } });
    const decided = jobs.enqueue({ kind: 'no-peer', payload: { name: 'decided' } });
    // The one slot is the slow job's: the job that waits on nothing runs beside it, the other waits.
    expect((await jobs.waitFor(decided.id, 5_000))?.status).toBe('done');
    expect(log).toEqual(['start slow', 'start decided', 'end decided']);
    releasePeer();
    expect((await jobs.waitFor(waiting.id, 5_000))?.status).toBe('done');
    expect((await jobs.waitFor(slow.id, 5_000))?.status).toBe('done');
    expect(log.slice(3)).toEqual(['end slow', 'start waiting', 'end waiting']);
  });
});

describe('job queue: one job per record (enqueueOrJoin), run once more when dirty (issue #36.2)', () => {
  /** A record job that reads a "record" (a variable) when it starts and holds until released. */
  function recordJob(jobs: JobQueue) {
    const record = { version: 1 };
    const reads: number[] = [];
    const gates: (() => void)[] = [];
    jobs.register<{ id: string }>('record', async () => {
      const seen = record.version;
      reads.push(seen);
      await new Promise<void>((resolve) => gates.push(resolve));
      return { seen };
    });
    const trigger = () => jobs.enqueueOrJoin({ kind: 'record', payload: { id: 'r' }, lane: laneOf('r') });
    return { record, reads, gates, trigger };
  }

  it('a trigger while the job waits joins it: one job, one run, the same run for both', async () => {
    const { jobs } = queue(2);
    const { reads, gates, trigger } = recordJob(jobs);
    const first = trigger();
    const second = trigger();
    expect(first).toMatchObject({ joined: 'new', run: 1 });
    expect(second).toMatchObject({ joined: 'pending', run: 1 });
    expect(second.job.id).toBe(first.job.id);
    jobs.start();
    await eventually(() => gates.length === 1);
    gates[0]!();
    expect(await jobs.waitForRun(first.job.id, 1, 5_000)).toMatchObject({ run: 1, status: 'done' });
    expect(reads).toEqual([1]);
    expect(jobs.list({ limit: 5 })).toEqual([expect.objectContaining({ status: 'done', attempts: 1 })]);
  });

  it('a trigger while the job runs marks it dirty: it runs once more and reads again; each trigger gets the run that started after it', async () => {
    const { jobs } = queue(2);
    const ends: RunEnd[] = [];
    const { record, reads, gates, trigger } = recordJob(jobs);
    jobs.onRunEnd('record', (_payload, end) => ends.push(end));
    jobs.start();
    const first = trigger();
    await eventually(() => gates.length === 1);
    record.version = 2;
    const during = trigger();
    const alsoDuring = trigger();
    expect(during).toMatchObject({ joined: 'running', run: 2 });
    expect(alsoDuring).toMatchObject({ joined: 'running', run: 2 });
    expect(during.job.id).toBe(first.job.id);
    gates[0]!();
    expect(await jobs.waitForRun(first.job.id, 1, 5_000)).toMatchObject({ run: 1, result: { seen: 1 } });
    await eventually(() => gates.length === 2);
    gates[1]!();
    expect(await jobs.waitForRun(first.job.id, 2, 5_000)).toMatchObject({ run: 2, result: { seen: 2 } });
    expect(reads).toEqual([1, 2]);
    expect(ends).toEqual([
      { run: 1, status: 'done', result: { seen: 1 } },
      { run: 2, status: 'done', result: { seen: 2 } },
    ]);
    // Still one job for the record: done after its second run.
    expect(jobs.list({ limit: 5 })).toEqual([
      expect.objectContaining({ id: first.job.id, status: 'done', attempts: 2 }),
    ]);
    // Once it is done, the next trigger makes a new job.
    expect(trigger()).toMatchObject({ joined: 'new', run: 1 });
  });

  it('a retryable failure is the same job tried again by the queue (no second kind); a dirty run starts with a fresh retry budget', async () => {
    const { jobs } = queue(2);
    const ends: { run: number; status: string }[] = [];
    let failures = 0;
    jobs.register<{ id: string }>(
      'flaky',
      async () => {
        if (failures++ < 1) throw new RetryLaterError('provider busy', 10);
        return 'ok';
      },
      { maxAttempts: 2, onRunEnd: (_payload, end) => void ends.push({ run: end.run, status: end.status }) },
    );
    jobs.start();
    const { job } = jobs.enqueueOrJoin({ kind: 'flaky', payload: { id: 'f' }, lane: laneOf('f') });
    expect(await jobs.waitForRun(job.id, 2, 5_000)).toMatchObject({ run: 2, status: 'done', result: 'ok' });
    expect(ends).toEqual([
      { run: 1, status: 'retry' },
      { run: 2, status: 'done' },
    ]);
    expect(jobs.list({ limit: 5 }).map((row) => row.kind)).toEqual(['flaky']);
  });

  it('a job waiting out a retry is run now by a new trigger, which joins it', async () => {
    const { jobs } = queue(2);
    let calls = 0;
    jobs.register<{ id: string }>('slow-retry', async () => {
      if (calls++ === 0) throw new RetryLaterError('wait a minute', 60_000);
      return 'done now';
    });
    jobs.start();
    const { job } = jobs.enqueueOrJoin({ kind: 'slow-retry', payload: { id: 's' }, lane: laneOf('s') });
    await eventually(() => jobs.list({ limit: 5 }).some((row) => row.lastError === 'wait a minute'));
    const joined = jobs.enqueueOrJoin({ kind: 'slow-retry', payload: { id: 's' }, lane: laneOf('s') });
    expect(joined).toMatchObject({ joined: 'pending', run: 2 });
    expect(joined.job.id).toBe(job.id);
    expect(await jobs.waitForRun(job.id, 2, 5_000)).toMatchObject({ status: 'done', result: 'done now' });
  });

  it('a run that fails for good while dirty is still run once more for the trigger that came during it', async () => {
    const { jobs } = queue(2);
    const gates: (() => void)[] = [];
    let runs = 0;
    jobs.register<{ id: string }>(
      'fragile',
      async () => {
        runs++;
        if (runs === 1) {
          await new Promise<void>((resolve) => gates.push(resolve));
          throw new PermanentJobError('refused');
        }
        return 'second run';
      },
      { maxAttempts: 1 },
    );
    jobs.start();
    const { job } = jobs.enqueueOrJoin({ kind: 'fragile', payload: { id: 'x' }, lane: laneOf('x') });
    await eventually(() => gates.length === 1);
    expect(jobs.enqueueOrJoin({ kind: 'fragile', payload: { id: 'x' }, lane: laneOf('x') })).toMatchObject({
      joined: 'running',
      run: 2,
    });
    gates[0]!();
    expect(await jobs.waitForRun(job.id, 1, 5_000)).toMatchObject({
      run: 1,
      status: 'failed',
      error: 'refused',
    });
    expect(await jobs.waitForRun(job.id, 2, 5_000)).toMatchObject({
      run: 2,
      status: 'done',
      result: 'second run',
    });
  });
});

describe('job queue: a job done at once by its caller (doneAtOnce)', () => {
  it('is stored done, with its result and one attempt, and read back as the queue would have left it', async () => {
    const { jobs } = queue(1);
    jobs.register<{ name: string }>('decide', async () => 'from the queue');
    jobs.start();
    const atOnce = jobs.doneAtOnce({ kind: 'decide', payload: { name: 'a' }, lane: laneOf('L') }, () => ({
      ok: 1,
    }));
    expect(atOnce?.result).toEqual({ ok: 1 });
    expect(atOnce?.job).toMatchObject({ status: 'done', attempts: 1, result: '{"ok":1}', lane: laneOf('L') });
    // A wait for it answers at once from the database, and the job list shows it done.
    expect(await jobs.waitFor(atOnce!.job.id, 1_000)).toMatchObject({ status: 'done', attempts: 1 });
    expect(jobs.list({ limit: 5 })).toEqual([
      expect.objectContaining({ id: atOnce!.job.id, kind: 'decide', status: 'done', attempts: 1 }),
    ]);
    expect(jobs.counts()).toEqual({ pending: 0, running: 0, failed: 0 });
  });

  it('stores nothing, and does not decide, while its lane has a job waiting or running, or is held', async () => {
    const { jobs } = queue(1);
    let releasePeer!: () => void;
    const peer = new Promise<void>((resolve) => (releasePeer = resolve));
    jobs.register<{ name: string }>('step', async ({ name }) => {
      if (name === 'slow') await peer;
      return name;
    });
    const decisions: string[] = [];
    const decide = (name: string) => () => {
      decisions.push(name);
      return name;
    };
    // Waiting (not started: the queue is not running yet) in lane A.
    const waiting = jobs.enqueue({ kind: 'step', payload: { name: 'slow' }, lane: laneOf('A') });
    expect(
      jobs.doneAtOnce({ kind: 'step', payload: { name: 'a' }, lane: laneOf('A') }, decide('a')),
    ).toBeUndefined();
    // Running in lane A.
    jobs.start();
    await eventually(() => jobs.list({ limit: 5 }).some((job) => job.status === 'running'));
    expect(
      jobs.doneAtOnce({ kind: 'step', payload: { name: 'a' }, lane: laneOf('A') }, decide('a')),
    ).toBeUndefined();
    // Held outside the queue in lane B.
    let releaseHolder: (() => void) | undefined;
    const held = jobs.withLane(laneOf('B'), () => new Promise<void>((resolve) => (releaseHolder = resolve)));
    await eventually(() => releaseHolder !== undefined);
    expect(
      jobs.doneAtOnce({ kind: 'step', payload: { name: 'b' }, lane: laneOf('B') }, decide('b')),
    ).toBeUndefined();
    // Another lane is free; a work that cannot decide stores nothing either.
    expect(
      jobs.doneAtOnce({ kind: 'step', payload: { name: 'c' }, lane: laneOf('C') }, decide('c'))?.result,
    ).toBe('c');
    expect(
      jobs.doneAtOnce({ kind: 'step', payload: { name: 'd' }, lane: laneOf('D') }, () => undefined),
    ).toBeUndefined();
    expect(decisions).toEqual(['c']);
    expect(jobs.list({ limit: 10 }).map((job) => job.status)).toEqual(['done', 'running']);

    releaseHolder!();
    await held;
    releasePeer();
    expect((await jobs.waitFor(waiting.id, 5_000))?.status).toBe('done');
    // Lane A is free again once its job has let go of it: decided at once then.
    await eventually(
      () =>
        jobs.doneAtOnce({ kind: 'step', payload: { name: 'a' }, lane: laneOf('A') }, decide('a'))?.result ===
        'a',
    );
  });
});

describe('job queue: long work stopped at once when the bridge stops (issue #43)', () => {
  it('a kind registered stopsAtOnce is aborted at the start of stop(), left unfinished, and runs again at the next start', async () => {
    const { jobs, db } = queue(2);
    let runs = 0;
    jobs.register(
      'long',
      async (_payload, { signal }) => {
        runs++;
        if (runs > 1) return 'again';
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
        return 'stopped';
      },
      { stopsAtOnce: true, holdsSlot: false },
    );
    const job = jobs.enqueue({ kind: 'long', payload: {} });
    jobs.start();
    await eventually(() => runs === 1);
    // A grace longer than the test may take: this kind is stopped without waiting for it.
    await jobs.stop(600_000);
    expect(jobs.list({ limit: 5 }).find((row) => row.id === job.id)?.status).toBe('running');

    const next = new JobQueue({
      repo: createJobsRepo(db),
      activity: new ActivityLog(createActivityRepo(db), pino({ level: 'silent' })),
      logger: pino({ level: 'silent' }),
      groupCommit: groupCommitOf(db),
    });
    next.register('long', async () => 'again', { stopsAtOnce: true, holdsSlot: false });
    next.start();
    cleanup.push(() => next.stop(100));
    expect((await next.waitFor(job.id, 5_000))?.status).toBe('done');
  });
});
