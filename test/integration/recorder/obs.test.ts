import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxObs, type SandboxObs } from '../../../main/sandbox/index.js';
import { eventually, startTestBridge, type TestBridge } from '../../support/bridge.js';
import { tempDir } from '../../support/temp-dir.js';

/**
 * The recorder against the simulated OBS (DESIGN §5.5, §6.7, §8), which the bridge reaches with the
 * real obs-websocket-js client over a real websocket. Time: the simulator's outputDuration and the
 * bridge's take times run on one clock the test moves, so a "5 s" take takes no 5 s.
 */
const PASSWORD = 'obs-password-4455';
let clockMs = Date.parse('2026-05-01T10:00:00.000Z');
const now = () => new Date(clockMs);
const advance = (seconds: number) => void (clockMs += seconds * 1000);

let obs: SandboxObs;
const bridges: TestBridge[] = [];

beforeAll(async () => {
  obs = await startSandboxObs({ password: PASSWORD, now });
});
afterAll(async () => {
  await obs?.stop();
});
afterEach(async () => {
  if (obs.recording.active) obs.stopRecording();
  await obs.refuseConnections(false);
  while (bridges.length > 0) await bridges.pop()!.close();
});

async function bridgeOnObs(env: Record<string, string> = {}, dataDir?: string): Promise<TestBridge> {
  const bridge = await startTestBridge(
    { RECORDER_OBS_URL: obs.url, RECORDER_OBS_PASSWORD: PASSWORD, ...env },
    { areas: ['recorder'], now, ...(dataDir ? { dataDir } : {}) },
  );
  bridges.push(bridge);
  return bridge;
}

const status = async (bridge: TestBridge) => (await bridge.call('GET', '/api/recorder/status')).body;
const connected = (bridge: TestBridge) => eventually(async () => (await status(bridge)).connection.connected);
const takes = async (bridge: TestBridge) => (await bridge.call('GET', '/api/recorder/takes')).body;

describe("OBS's own name in the activity log (issue #40.4)", () => {
  it('says its date-and-time name in words, not its %CCYY format codes', async () => {
    obs.setParameter('Output', 'FilenameFormatting', '%CCYY-%MM-%DD %hh-%mm-%ss');
    // The health area answers GET /api/activity.
    const bridge = await startTestBridge(
      { RECORDER_OBS_URL: obs.url, RECORDER_OBS_PASSWORD: PASSWORD },
      { areas: ['recorder', 'health'], now },
    );
    bridges.push(bridge);
    await connected(bridge);
    const line = await eventually(async () => {
      const activity = await bridge.call('GET', '/api/activity?type=recorder.connected&limit=5');
      return (activity.body as { data: Array<{ message: string }> }).data[0]?.message;
    });
    expect(line).toMatch(
      /next recording: its own date-and-time name \(like \d{4}-\d{2}-\d{2} \d{2}-\d{2}-\d{2}\)/,
    );
    expect(line).not.toContain('%CCYY');
  });
});

describe('the filename reaches OBS', () => {
  it('is applied, read back, and OBS no longer overwrites files', async () => {
    const bridge = await bridgeOnObs();
    await connected(bridge);
    expect(obs.parameter('Output', 'OverwriteIfExists')).toBe('false');

    const set = await bridge.call('POST', '/api/recorder/filename', { body: { filename: '20260501_ep42' } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      filename: '20260501_ep42',
      state: 'applied',
      obsFilename: '20260501_ep42',
    });
    expect(obs.parameter('Output', 'FilenameFormatting')).toBe('20260501_ep42');
    expect((await bridge.call('GET', '/api/recorder/filename')).body).toMatchObject({
      filename: '20260501_ep42',
      state: 'applied',
      clearedAt: null,
    });
  });

  it('refuses a name with % while a recorder is configured, naming the rule', async () => {
    const bridge = await bridgeOnObs();
    const refused = await bridge.call('POST', '/api/recorder/filename', { body: { filename: 'ep42 100%' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/must not contain "%" when a recorder is configured/);
    expect(refused.body.details).toMatchObject({
      field: 'filename',
      suggestion: expect.stringMatching(/_ep42_100$/),
    });
  });

  it("refuses $ and ` while a recorder is configured: OBS's shell would expand them (issue #35.1)", async () => {
    const bridge = await bridgeOnObs();
    await connected(bridge);
    await bridge.call('POST', '/api/recorder/filename', { body: { filename: '20261204_before' } });
    for (const [filename, character] of [
      ['20261204_$(touch injected-marker)', '$'],
      ['20261203_Ke$ha_Interview', '$'],
      ['20261204_`id`', '`'],
    ] as const) {
      const refused = await bridge.call('POST', '/api/recorder/filename', { body: { filename } });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toContain(`"${character}"`);
      expect(refused.body.error).toMatch(/shell/);
      expect(refused.body.details).toMatchObject({ field: 'filename' });
    }
    // OBS keeps the name it had: nothing reached it.
    expect(obs.parameter('Output', 'FilenameFormatting')).toBe('20261204_before');
  });

  it('holds a name with % when no recorder is configured (the spec: memory only)', async () => {
    const bridge = await startTestBridge({}, { areas: ['recorder'] });
    bridges.push(bridge);
    const held = await bridge.call('POST', '/api/recorder/filename', { body: { filename: 'ep42 100%' } });
    expect(held.body).toMatchObject({ filename: 'ep42 100%', state: 'held', obsFilename: null });
    expect((await status(bridge)).connection).toMatchObject({ configured: false, connected: false });
  });

  it("says failed with OBS's words when OBS refuses the name", async () => {
    const bridge = await bridgeOnObs();
    await connected(bridge);
    obs.refuseRequests('SetProfileParameter', { code: 702, comment: 'Failed to save the profile.' });
    const set = await bridge.call('POST', '/api/recorder/filename', { body: { filename: 'ep43' } });
    expect(set.body).toMatchObject({
      state: 'failed',
      failure: 'OBS refused SetProfileParameter: Failed to save the profile. (status 702)',
    });
  });

  it("refuses a wrong password with OBS's words, and holds the name pending", async () => {
    const bridge = await bridgeOnObs({ RECORDER_OBS_PASSWORD: 'not-the-password' });
    const refused = await eventually(async () => {
      const { connection } = await status(bridge);
      return connection.lastError ? connection : null;
    });
    expect(refused).toMatchObject({ connected: false, lastError: 'Authentication failed. (code 4009)' });
    expect(refused.nextAttemptAt).not.toBeNull();
    const set = await bridge.call('POST', '/api/recorder/filename', { body: { filename: 'ep44' } });
    expect(set.body).toMatchObject({ filename: 'ep44', state: 'pending' });
    expect(obs.parameter('Output', 'FilenameFormatting')).not.toBe('ep44');
  });

  it('is pending while OBS is away and applied when it comes back', async () => {
    const bridge = await bridgeOnObs();
    await connected(bridge);
    await obs.refuseConnections(true);
    await eventually(async () => !(await status(bridge)).connection.connected);
    const set = await bridge.call('POST', '/api/recorder/filename', { body: { filename: 'ep45' } });
    expect(set.body).toMatchObject({ filename: 'ep45', state: 'pending' });

    await obs.refuseConnections(false);
    const applied = await eventually(async () => {
      const body = (await bridge.call('GET', '/api/recorder/filename')).body;
      return body.state === 'applied' ? body : null;
    });
    expect(applied).toMatchObject({ filename: 'ep45', obsFilename: 'ep45' });
    expect(obs.parameter('Output', 'FilenameFormatting')).toBe('ep45');
  });

  it('after a restart says the name was cleared, and what OBS will use', async () => {
    const data = tempDir('recorder-restart');
    try {
      const first = await bridgeOnObs({}, data.path);
      await connected(first);
      await first.call('POST', '/api/recorder/filename', { body: { filename: 'ep46' } });
      await bridges.pop()!.stop();

      const second = await bridgeOnObs({}, data.path);
      await connected(second);
      const after = (await second.call('GET', '/api/recorder/filename')).body;
      expect(after).toMatchObject({ filename: null, state: null, obsFilename: 'ep46' });
      expect(Date.parse(after.clearedAt)).toBe(clockMs);
    } finally {
      while (bridges.length > 0) await bridges.pop()!.close();
      data.remove();
    }
  });
});

describe('takes', () => {
  it('records a take when OBS stops, with the file OBS wrote, and gives the next one _T02', async () => {
    const bridge = await bridgeOnObs();
    await connected(bridge);
    await bridge.call('POST', '/api/recorder/filename', { body: { filename: 'ep50' } });

    obs.startRecording();
    const recording = await eventually(async () => {
      const { recording } = await status(bridge);
      return recording.active ? recording : null;
    });
    expect(recording).toMatchObject({ takeName: 'ep50', since: now().toISOString(), paused: false });
    advance(5);
    const path = obs.stopRecording();
    expect(path).toBe('/home/studio/Videos/ep50.mkv');

    const next = await eventually(async () => {
      const body = (await bridge.call('GET', '/api/recorder/filename')).body;
      return body.filename === 'ep50_T02' && body.state === 'applied' ? body : null;
    });
    expect(next).toMatchObject({ requested: 'ep50', obsFilename: 'ep50_T02' });
    expect(obs.parameter('Output', 'FilenameFormatting')).toBe('ep50_T02');
    const [take] = (await takes(bridge)).takes;
    expect(take).toMatchObject({
      name: 'ep50',
      filePath: '/home/studio/Videos/ep50.mkv',
      durationS: 5,
      stopSeen: true,
      stoppedAt: now().toISOString(),
    });
    expect(Date.parse(take.stoppedAt) - Date.parse(take.startedAt)).toBe(5000);

    // The second take writes ep50_T02.mkv, and the third will be _T03.
    obs.startRecording();
    await eventually(async () => (await status(bridge)).recording.active);
    advance(2);
    expect(obs.stopRecording()).toBe('/home/studio/Videos/ep50_T02.mkv');
    await eventually(async () => obs.parameter('Output', 'FilenameFormatting') === 'ep50_T03');
    const listed = (await takes(bridge)).takes;
    expect(listed.map((t: { name: string }) => t.name)).toEqual(['ep50_T02', 'ep50']);

    // Asking for a used name again gets the next free take.
    const again = await bridge.call('POST', '/api/recorder/filename', { body: { filename: 'ep50' } });
    expect(again.body).toMatchObject({ filename: 'ep50_T03', requested: 'ep50', state: 'applied' });
  });

  it('keeps _Tnn within 128 bytes by shortening the base', async () => {
    const bridge = await bridgeOnObs();
    await connected(bridge);
    const long = 'é'.repeat(64); // 128 bytes
    await bridge.call('POST', '/api/recorder/filename', { body: { filename: long } });
    obs.startRecording();
    await eventually(async () => (await status(bridge)).recording.active);
    obs.stopRecording();
    const next = await eventually(async () => {
      const body = (await bridge.call('GET', '/api/recorder/filename')).body;
      return body.filename !== long && body.state === 'applied' ? body.filename : null;
    });
    expect(next).toBe(`${'é'.repeat(62)}_T02`);
    expect(new TextEncoder().encode(next).length).toBeLessThanOrEqual(128);
  });
});

describe('marks', () => {
  it("stores the take's position (the time since STARTED), pauses excluded", async () => {
    const bridge = await bridgeOnObs();
    await connected(bridge);
    await bridge.call('POST', '/api/recorder/filename', { body: { filename: 'ep60' } });
    obs.startRecording();
    await eventually(async () => (await status(bridge)).recording.active);

    advance(5);
    const first = await bridge.call('POST', '/api/recorder/marks', { body: { label: 'great answer' } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      takeName: 'ep60',
      note: null,
      mark: { offsetS: 5, label: 'great answer' },
    });

    obs.pauseRecording();
    await eventually(async () => (await status(bridge)).recording.paused);
    advance(10);
    obs.resumeRecording();
    // The bridge times pauses by the events' arrival (milliseconds on a real OBS): let it see this one.
    await eventually(async () => !(await status(bridge)).recording.paused);
    advance(3);
    const second = await bridge.call('POST', '/api/recorder/marks', { body: {} });
    expect(second.body.mark).toMatchObject({ offsetS: 8, label: null });

    advance(2);
    obs.stopRecording();
    const take = await eventually(async () => {
      const [latest] = (await takes(bridge)).takes;
      return latest?.stoppedAt ? latest : null;
    });
    expect(take).toMatchObject({ name: 'ep60', durationS: 10 });
    expect(take.marks.map((m: { offsetS: number }) => m.offsetS)).toEqual([5, 8]);
  });

  it('with no take in progress keeps the wall-clock time and says so', async () => {
    const bridge = await bridgeOnObs();
    await connected(bridge);
    const loose = await bridge.call('POST', '/api/recorder/marks', { body: { label: 'idea' } });
    expect(loose.status).toBe(200);
    expect(loose.body).toMatchObject({
      takeName: null,
      mark: { takeId: null, offsetS: null, at: now().toISOString(), label: 'idea' },
      note: expect.stringMatching(/^no take in progress/),
    });
    expect((await takes(bridge)).looseMarks[0]).toMatchObject({ label: 'idea' });
  });

  it('refuses a label over 200 characters, naming the field', async () => {
    const bridge = await bridgeOnObs();
    const refused = await bridge.call('POST', '/api/recorder/marks', { body: { label: 'x'.repeat(201) } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/label/);
  });
});

describe('the sandbox', () => {
  it('connects to its simulated OBS, whose buttons the Recorder page presses', async () => {
    const bridge = await startTestBridge({ BRIDGE_SANDBOX: '1' }, { areas: ['recorder'] });
    bridges.push(bridge);
    const connection = await eventually(async () => {
      const body = await status(bridge);
      return body.connection.connected ? body.connection : null;
    });
    expect(connection).toMatchObject({ configured: true, simulated: true });
    expect(
      (await bridge.call('POST', '/api/recorder/filename', { body: { filename: 'demo1' } })).body.state,
    ).toBe('applied');
    expect((await bridge.call('POST', '/api/sandbox/obs', { body: { action: 'start' } })).status).toBe(200);
    await eventually(async () => (await status(bridge)).recording.active);
    const again = await bridge.call('POST', '/api/sandbox/obs', { body: { action: 'start' } });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/already recording/);
    await bridge.call('POST', '/api/sandbox/obs', { body: { action: 'stop' } });
    const [take] = await eventually(async () => {
      const list = (await takes(bridge)).takes;
      return list[0]?.stoppedAt ? list : null;
    });
    expect(take).toMatchObject({ name: 'demo1', filePath: expect.stringMatching(/demo1\.mkv$/) });

    await bridge.call('POST', '/api/sandbox/obs', { body: { action: 'drop' } });
    await eventually(
      async () => (await status(bridge)).connection.lastError === 'Server stopping. (code 1001)',
    );
    await connected(bridge);
  });

  it('uses no recorder with RECORDER_OBS_URL=none, and has no simulated OBS buttons outside the sandbox', async () => {
    const sandbox = await startTestBridge(
      { BRIDGE_SANDBOX: '1', RECORDER_OBS_URL: 'none' },
      { areas: ['recorder'] },
    );
    bridges.push(sandbox);
    expect((await status(sandbox)).connection).toMatchObject({ configured: false, simulated: false });
    expect(
      (await sandbox.call('POST', '/api/recorder/filename', { body: { filename: 'a%b' } })).body.state,
    ).toBe('held');
    const real = await bridgeOnObs();
    const refused = await real.call('POST', '/api/sandbox/obs', { body: { action: 'start' } });
    expect(refused.status).toBe(404);
  });
});
