import { afterAll, describe, expect, it } from 'vitest';
import { runCli, type BridgeProcess } from '../../support/process.js';
import { tempDir } from '../../support/temp-dir.js';

/**
 * A key the dashboard cannot send locked everyone out without a word (issue #35.7): it travels in a
 * header (`Authorization`, `X-Api-Key`), where a browser refuses anything but ASCII. The bridge
 * refuses it at start: exit 2, one line saying which characters a key may hold, never the key.
 */

const data = tempDir('bridge-api-key-characters');
const started: BridgeProcess[] = [];
afterAll(() => {
  for (const cli of started) cli.child.kill('SIGKILL');
  data.remove();
});

/** The CLI's exit code and stderr lines; null code if it is still running (serving) after `withinMs`. */
async function startWithKey(key: string, withinMs = 12_000) {
  const cli = runCli({
    BRIDGE_DATA_DIR: data.path,
    BRIDGE_PORT: '0',
    BRIDGE_SANDBOX: '0',
    BRIDGE_API_KEY: key,
  });
  started.push(cli);
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), withinMs));
  const exit = await Promise.race([cli.exited, timeout]);
  return { code: exit?.code ?? null, lines: cli.output().stderr.trimEnd().split('\n') };
}

const rule =
  'studio-bridge: invalid configuration: BRIDGE_API_KEY: may hold only visible ASCII characters (letters, digits and the punctuation ! to ~), no spaces: it is sent in an HTTP header';

describe('BRIDGE_API_KEY characters', () => {
  it('a key with a non-ASCII letter: exit 2, one line naming the characters allowed', async () => {
    const { code, lines } = await startWithKey('schlüssel-der-brücke-2024');
    expect(code).toBe(2);
    expect(lines).toEqual([rule]);
  }, 20_000);

  it('a key with a space, even a short one: the same one line, not a second about its length', async () => {
    const { code, lines } = await startWithKey('two words');
    expect(code).toBe(2);
    expect(lines).toEqual([rule]);
  });
});
