import { describe, expect, it } from 'vitest';
import { LaneBusyError, LaneLocks } from '../../../main/kernel/jobs/lane-locks.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('LaneLocks', () => {
  it('runs the work of one key one at a time, in arrival order; other keys do not wait', async () => {
    const locks = new LaneLocks();
    const log: string[] = [];
    let releaseFirst!: () => void;
    const first = locks.run('SocialPost:a', async () => {
      log.push('a1 start');
      await new Promise<void>((resolve) => (releaseFirst = resolve));
      log.push('a1 end');
    });
    const second = locks.run('SocialPost:a', async () => void log.push('a2'));
    const other = locks.run('SocialPost:b', async () => void log.push('b'));
    await other;
    // Fixed wait on purpose: "a2 has not started" has no event; b done shows the locks got this far.
    await tick();
    expect(log).toEqual(['a1 start', 'b']);
    releaseFirst();
    await Promise.all([first, second]);
    expect(log).toEqual(['a1 start', 'b', 'a1 end', 'a2']);
    expect(locks.busy('SocialPost:a')).toBe(false);
  });

  it('a waiter that gives up never runs and does not hold up those behind it', async () => {
    const locks = new LaneLocks();
    let releaseFirst!: () => void;
    const first = locks.run('k', () => new Promise<void>((resolve) => (releaseFirst = resolve)));
    const ran: string[] = [];
    const impatient = locks.run('k', async () => void ran.push('impatient'), 10);
    const patient = locks.run('k', async () => void ran.push('patient'));
    await expect(impatient).rejects.toBeInstanceOf(LaneBusyError);
    releaseFirst();
    await Promise.all([first, patient]);
    expect(ran).toEqual(['patient']);
  });

  it('a failing holder releases the lock', async () => {
    const locks = new LaneLocks();
    await expect(locks.run('k', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(locks.run('k', async () => 'next', 10)).resolves.toBe('next');
  });
});
