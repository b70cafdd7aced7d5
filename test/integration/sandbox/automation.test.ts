import { afterEach, describe, expect, it } from 'vitest';
import { startSandboxAutomation, type SandboxAutomation } from '../../../main/sandbox/index.js';

const N8N_HINT =
  "Click the 'Execute workflow' button on the canvas, then try again. (In test mode, the webhook only works for one call after you click this button)";

describe('sandbox automation engine (n8n webhooks)', () => {
  let automation: SandboxAutomation;
  const trigger = async (name: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${automation.url}/webhook/${name}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: JSON.parse(await res.text()) };
  };

  afterEach(() => automation.stop());

  it('starts an active workflow and records what it received', async () => {
    automation = await startSandboxAutomation();
    const res = await trigger('guest-confirmed', { id: 'g1', name: 'Ada', stage: 'Confirmed' });
    expect(res).toEqual({ status: 200, json: { message: 'Workflow was started' } });
    const [run] = automation.received();
    expect(run).toMatchObject({
      workflow: 'guest-confirmed',
      body: { id: 'g1', name: 'Ada', stage: 'Confirmed' },
    });
    expect(run?.headers['content-type']).toBe('application/json');
    const overHttp = await (
      await fetch(`${automation.url}/__sandbox/received`, {
        headers: { 'X-Sandbox-Key': automation.controlKey },
      })
    ).json();
    expect(overHttp).toEqual({ received: automation.received() });
  });

  it('answers n8n’s 404 {code, message, hint} for an unknown or inactive workflow', async () => {
    automation = await startSandboxAutomation();
    const unknown = await trigger('guest-lost', {});
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({
      code: 404,
      message: 'The requested webhook "POST guest-lost" is not registered.',
      hint: N8N_HINT,
    });
    automation.setWorkflowActive('guest-recorded', false);
    const inactive = await trigger('guest-recorded', {});
    expect(inactive.json.message).toBe('The requested webhook "POST guest-recorded" is not registered.');
    await fetch(`${automation.url}/__sandbox/workflows`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Sandbox-Key': automation.controlKey },
      body: JSON.stringify({ name: 'guest-recorded', active: true }),
    });
    expect((await trigger('guest-recorded', {})).status).toBe(200);
    expect(automation.received().map((r) => r.workflow)).toEqual(['guest-recorded']);
  });

  it('checks the configured auth header; the recorded copy masks it', async () => {
    automation = await startSandboxAutomation({ authHeader: 'X-N8N-Auth: s3cret-value' });
    expect(automation.apiKey).toBe('s3cret-value');
    expect((await trigger('guest-published', {})).status).toBe(401);
    expect((await trigger('guest-published', {}, { 'X-N8N-Auth': 'nope' })).json).toEqual({
      code: 403,
      message: 'Authorization data is wrong!',
    });
    expect((await trigger('guest-published', { ok: 1 }, { 'X-N8N-Auth': 's3cret-value' })).status).toBe(200);
    const [run] = automation.received();
    expect(run?.headers['x-n8n-auth']).toBe('••••alue');
  });
});
