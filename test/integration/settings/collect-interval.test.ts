import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestBridge, type TestBridge } from '../../support/bridge.js';
import { runCli } from '../../support/process.js';
import { freePort } from '../../support/ports.js';
import { tempDir } from '../../support/temp-dir.js';

/**
 * COLLECT_INTERVAL_HOURS below 1 is nonsense for a collection that reads every platform's numbers
 * (issue #14.8): refused by the Settings route and by start-up, with the rule in words.
 */
const cleanup: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe('COLLECT_INTERVAL_HOURS below one hour', () => {
  it('PUT /api/settings refuses it with 400 naming the field and the rule, and writes nothing', async () => {
    const bridge: TestBridge = await startTestBridge();
    cleanup.push(() => bridge.close());
    const configPath = path.join(bridge.dataDir, 'config.json');
    const before = existsSync(configPath) ? readFileSync(configPath, 'utf8') : null;

    for (const value of ['0.5', '0', 'abc']) {
      const put = await bridge.call('PUT', '/api/settings', {
        body: { values: { COLLECT_INTERVAL_HOURS: value } },
      });
      expect(put.status, value).toBe(400);
      expect(put.body.code).toBe('VALIDATION_ERROR');
      expect(put.body.details).toEqual([
        expect.objectContaining({ field: 'COLLECT_INTERVAL_HOURS', message: expect.stringMatching(/hour/) }),
      ]);
    }
    const tooSmall = await bridge.call('PUT', '/api/settings', {
      body: { values: { COLLECT_INTERVAL_HOURS: '0.5' } },
    });
    expect(tooSmall.body.details[0]).toMatchObject({ rule: 'too_small', message: 'must be at least 1 hour' });
    expect(existsSync(configPath) ? readFileSync(configPath, 'utf8') : null).toBe(before);

    const ok = await bridge.call('PUT', '/api/settings', {
      body: { values: { COLLECT_INTERVAL_HOURS: '1' } },
    });
    expect(ok.status).toBe(200);
  });

  it('start-up with COLLECT_INTERVAL_HOURS=0.5 exits 2 with one line naming the key and the rule', async () => {
    const data = tempDir('collect-interval');
    cleanup.push(data.remove);
    const cli = runCli({
      BRIDGE_HOST: '127.0.0.1',
      BRIDGE_PORT: String(await freePort()),
      BRIDGE_DATA_DIR: data.path,
      BRIDGE_SANDBOX: '0',
      COLLECT_INTERVAL_HOURS: '0.5',
    });
    cleanup.push(() => void cli.child.kill('SIGKILL'));
    const { code } = await cli.exited;
    expect(code).toBe(2);
    expect(cli.output().stderr).toContain('COLLECT_INTERVAL_HOURS: must be at least 1 hour');
  });
});
