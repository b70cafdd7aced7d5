import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestBridge, type TestBridge } from '../../support/bridge.js';
import { jobsIdle } from '../../support/settle.js';
import { tempDir } from '../../support/temp-dir.js';

interface Guest {
  id: string;
  name: string;
  stage: string;
  stageEnteredAt: string | null;
  workflows: Array<{ workflow: string; status: string }>;
}

/** Sandbox mode: the demo guests, their seeded history, and the simulated n8n's view of what it received. */
let bridge: TestBridge;
const data = tempDir('bridge-guests');
const dataDir = data.path;
beforeAll(async () => {
  bridge = await startTestBridge({ BRIDGE_SANDBOX: '1' }, { dataDir });
});
afterAll(async () => {
  await bridge?.close();
  data.remove();
});

const guests = async (): Promise<Guest[]> => (await bridge.call('GET', '/api/guests')).body.data;

interface CrmDelivery {
  event: string;
  body: string;
  status: number;
}
/** The webhook deliveries of the sandbox CRM the bridge runs (its control route, with the sandbox's key). */
async function crmDeliveries(): Promise<CrmDelivery[]> {
  const health = await bridge.call('GET', '/health');
  const crmUrl = String(health.body.peers.crm.url).replace(/\/api\/v1\/?$/, '');
  const controlKey = (await bridge.call('GET', '/api/settings')).body.sandboxControlKey as string;
  const response = await fetch(`${crmUrl}/__sandbox/deliveries`, {
    headers: { 'X-Sandbox-Key': controlKey },
  });
  return ((await response.json()) as { deliveries: CrmDelivery[] }).deliveries;
}

describe('guests in sandbox mode', () => {
  it('has demo guests in every stage, each with a seeded history ending at its stage', async () => {
    const list = await guests();
    const stages = new Set(list.map((g) => g.stage));
    for (const stage of ['Outreach', 'Responded', 'Confirmed', 'Scheduled', 'Recorded', 'Published'])
      expect(stages).toContain(stage);
    for (const guest of list) expect(guest.stageEnteredAt, guest.name).not.toBeNull();
    const marcus = list.find((g) => g.name === 'Marcus Bell');
    const timeline = await bridge.call('GET', `/api/guests/${marcus?.id}/timeline`);
    expect(
      timeline.body.stages.map((s: { stage: string; source: string }) => `${s.stage}:${s.source}`),
    ).toEqual([
      'Outreach:demo',
      'Responded:demo',
      'Confirmed:demo',
      'Scheduled:demo',
      'Recorded:demo',
      'Published:demo',
    ]);
    expect(timeline.body.guest.contentProductionName).toContain('Building in Public');
  });

  it('answers the pipeline: cumulative counts, the four ratios and their targets', async () => {
    const response = await bridge.call('GET', '/guests/pipeline');
    expect(response.status).toBe(200);
    const { counts, current, ratios, targets, total } = response.body;
    expect(total).toBe(13);
    expect(current).toEqual({
      Outreach: 2,
      Responded: 1,
      Confirmed: 2,
      Scheduled: 2,
      Recorded: 3,
      Published: 3,
    });
    expect(counts).toEqual({
      Outreach: 13,
      Responded: 11,
      Confirmed: 10,
      Scheduled: 8,
      Recorded: 6,
      Published: 3,
    });
    expect(ratios.responseRate).toBeCloseTo(11 / 13, 4);
    expect(ratios.confirmationRate).toBeCloseTo(10 / 11, 4);
    // Show rate counts only recordings whose date has passed: the demo guest recording next week
    // (at Scheduled, date to come) is not a no-show; the one recording now (not yet Recorded) is.
    expect(ratios.showRate).toBeCloseTo(6 / 7, 4);
    expect(response.body.showRateBasis).toEqual({
      recorded: 6,
      due: 7,
      notYetDue: 1,
      rule: 'Recorded ÷ guests who reached Scheduled and whose recording date has passed; 1 recording still to come is not counted.',
    });
    expect(ratios.timeToPublishDays).toBeGreaterThanOrEqual(3);
    expect(ratios.timeToPublishDays).toBeLessThan(7);
    expect(targets).toEqual({
      responseRate: { target: 0.3, direction: 'above', met: true },
      confirmationRate: { target: 0.7, direction: 'above', met: true },
      showRate: { target: 0.95, direction: 'above', met: false },
      timeToPublishDays: { target: 7, direction: 'below', met: true },
    });
  });

  it('filters by pipeline start and refuses a reversed or impossible range', async () => {
    // A day ahead of every demo guest, within the dates the bridge reads (5 years ahead, issue #25.1).
    const ahead = new Date(Date.now() + 400 * 86_400_000).toISOString().slice(0, 10);
    const future = await bridge.call('GET', `/guests/pipeline?startDate=${ahead}`);
    expect(future.body).toMatchObject({
      total: 0,
      range: { startDate: ahead, basis: 'pipeline-start' },
    });
    expect(future.body.ratios.responseRate).toBeNull();
    const reversed = await bridge.call('GET', '/guests/pipeline?startDate=2026-02-01&endDate=2026-01-01');
    expect(reversed.status).toBe(400);
    expect(reversed.body.code).toBe('INVALID_DATE');
    const impossible = await bridge.call('GET', '/guests/pipeline?startDate=2026-02-30');
    expect(impossible.status).toBe(400);
    expect(impossible.body.error).toContain('startDate');
  });

  it('moving a guest with no date to Confirmed holds the workflow; "send anyway" starts it once, which the sandbox engine shows', async () => {
    const hannah = (await guests()).find((g) => g.name === 'Hannah Okafor');
    expect(hannah?.stage).toBe('Responded');
    const moved = await bridge.call('POST', `/api/guests/${hannah?.id}/stage`, {
      body: { stage: 'Confirmed' },
    });
    // Hannah has no recording date and no episode yet: the confirmation email would have empty lines.
    expect(moved.body).toMatchObject({
      changed: true,
      run: null,
      hold: { workflow: 'guest-confirmed', missing: ['date', 'subject', 'time'], status: 'waiting' },
    });
    const sent = await bridge.call('POST', `/api/guests/${hannah?.id}/holds/Confirmed/send-anyway`);
    expect(sent.body.run).toMatchObject({ workflow: 'guest-confirmed', status: 'queued' });
    const received = await eventually(async () => {
      const response = await bridge.call('GET', '/api/sandbox/automation/received');
      const found = response.body.received.find(
        (run: { workflow: string; body: { guest: { id: string } } }) => run.body.guest.id === hannah?.id,
      );
      return found ?? null;
    });
    expect(received.workflow).toBe('guest-confirmed');
    expect(received.body.email.to).toBe('hannah.okafor@example.com');
    const after = (await guests()).find((g) => g.id === hannah?.id);
    expect(after?.workflows).toEqual([
      expect.objectContaining({ workflow: 'guest-confirmed', status: 'started' }),
    ]);
    // The CRM's echo of the move (delivered by the sandbox CRM in a moment) starts nothing more:
    // checked once the bridge has answered the echo and has no workflow run left to send.
    await eventually(async () =>
      (await crmDeliveries()).some(
        (d) =>
          d.event === 'guest-updated' &&
          d.body.includes(String(hannah?.id)) &&
          d.body.includes('"stage":"Confirmed"') &&
          d.status === 200,
      ),
    );
    await jobsIdle(bridge.url, 'guests.workflow');
    const engine = await bridge.call('GET', '/api/sandbox/automation/received');
    expect(
      engine.body.received.filter(
        (run: { body: { guest: { id: string } } }) => run.body.guest.id === hannah?.id,
      ),
    ).toHaveLength(1);
    expect(engine.body.workflows).toContainEqual({ name: 'guest-confirmed', active: true });
  });

  it('a step back into a stage the guest was at before starts nothing', async () => {
    const marcus = (await guests()).find((g) => g.name === 'Marcus Bell');
    const moved = await bridge.call('POST', `/api/guests/${marcus?.id}/stage`, {
      body: { stage: 'Recorded' },
    });
    expect(moved.body).toMatchObject({ changed: true, run: null, guest: { stage: 'Recorded' } });
    const activity = await bridge.call('GET', '/api/activity?type=guests.stage&limit=1');
    expect(activity.body.data[0].message).toBe(
      'Guest Marcus Bell moved from Published to Recorded; guest-recorded not started: the guest was at Recorded before (run it from the Guests page if it should)',
    );
    const timeline = await bridge.call('GET', `/api/guests/${marcus?.id}/timeline`);
    expect(timeline.body.runs).toEqual([]);
    expect(timeline.body.stages.at(-1)).toMatchObject({
      previousStage: 'Published',
      stage: 'Recorded',
      source: 'dashboard',
    });
  });

  it('previews a template with the guest’s real data in the guest’s time zone', async () => {
    const aiko = (await guests()).find((g) => g.name === 'Aiko Tanaka');
    const preview = await bridge.call('POST', '/guests/templates/preview', {
      body: { moment: 'thank-you', guestId: aiko?.id },
    });
    expect(preview.status).toBe(200);
    expect(preview.body.subject).toBe('Thank you for joining The Studio Hour');
    expect(preview.body.body).toContain('"The Studio Hour #2: The Sound of Small Rooms"');
    expect(preview.body.values.timezone).toBe('Asia/Tokyo');
    // Published demo episodes have publishing records: the publish date comes from them.
    expect(preview.body.values.publish_date).toMatch(/^\w+day \d{1,2} \w+ \d{4}$/);
    expect(preview.body.unknownVariables).toEqual([]);
    expect(preview.body.missingValues).toEqual([]);

    const draft = await bridge.call('POST', '/guests/templates/preview', {
      body: {
        moment: 'outreach',
        guestId: aiko?.id,
        template: { subject: 'Hi {{name}}', body: '{{hots}} at {{time}} on {{subject}}' },
      },
    });
    expect(draft.body).toMatchObject({
      subject: 'Hi Aiko Tanaka',
      unknownVariables: ['hots'],
      missingValues: [],
    });
    const missing = await bridge.call('POST', '/guests/templates/preview', {
      body: { moment: 'confirmation', guestId: (await guests()).find((g) => g.name === 'Priya Raman')?.id },
    });
    // Priya has no date and no linked episode yet.
    expect(missing.body.missingValues).toEqual(expect.arrayContaining(['date', 'time', 'subject']));
    const unknownGuest = await bridge.call('POST', '/guests/templates/preview', {
      body: { moment: 'confirmation', guestId: 'nosuchguest000000' },
    });
    expect(unknownGuest.status).toBe(404);
  });

  it('stores edited templates and settings, refusing unknown variables', async () => {
    const before = await bridge.call('GET', '/guests/templates');
    expect(before.body.variables).toHaveLength(12);
    expect(before.body.updatedAt).toBeNull();
    const refused = await bridge.call('PUT', '/guests/templates', {
      body: { templates: { confirmation: { subject: 'See you {{dat}}', body: 'Hi {{name}}' } } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain('templates.confirmation.subject: unknown variable {{dat}}');
    const saved = await bridge.call('PUT', '/guests/templates', {
      body: {
        templates: {
          confirmation: { subject: 'See you on {{date}}, {{name}}', body: 'Hi {{name}}, {{host}} here.' },
        },
        settings: { host: 'Sam Rivera' },
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.templates.confirmation.subject).toBe('See you on {{date}}, {{name}}');
    expect(saved.body.templates.outreach).toEqual(before.body.templates.outreach);
    expect(saved.body.settings).toMatchObject({
      host: 'Sam Rivera',
      duration: before.body.settings.duration,
    });
    expect((await bridge.call('GET', '/guests/templates')).body.updatedAt).not.toBeNull();
    const ravi = (await guests()).find((g) => g.name === 'Ravi Patel');
    const preview = await bridge.call('POST', '/guests/templates/preview', {
      body: { moment: 'confirmation', guestId: ravi?.id },
    });
    expect(preview.body.body).toBe('Hi Ravi Patel, Sam Rivera here.');
  });

  it('after a restart on the same data dir, the same demo guests (seeded once, DESIGN §8) keep their history', async () => {
    const before = (await guests()).map((g) => g.id).sort();
    await bridge.close();
    bridge = await startTestBridge({ BRIDGE_SANDBOX: '1' }, { dataDir });
    const after = await guests();
    expect(after.map((g) => g.id).sort()).toEqual(before);
    for (const guest of after) expect(guest.stageEnteredAt, guest.name).not.toBeNull();
    expect((await bridge.call('GET', '/guests/pipeline')).body.counts.Published).toBe(3);
  });
});
