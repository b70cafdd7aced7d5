import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

/** Loads main/app.ts in a fresh Node process; reports which of twitter-text's files were loaded before and after `postRules()`. */
function twitterTextLoaded(): { atStart: boolean; afterRules: boolean } {
  const script = `
    import { createRequire } from 'node:module';
    const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes('twitter-text'));
    await import(${JSON.stringify(path.join(root, 'main/app.ts'))});
    const atStart = loaded();
    const { postRules } = await import(${JSON.stringify(path.join(root, 'main/areas/posting/post-rules.ts'))});
    await postRules();
    process.stdout.write(JSON.stringify({ atStart, afterRules: loaded() }));
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    encoding: 'utf8',
  });
  return JSON.parse(out) as { atStart: boolean; afterRules: boolean };
}

describe('the posting rules load on first use, not at the start (main/areas/posting/post-rules.ts)', () => {
  it('loading the bridge does not load twitter-text; the rules do', () => {
    expect(twitterTextLoaded()).toEqual({ atStart: false, afterRules: true });
  }, 30_000);
});
