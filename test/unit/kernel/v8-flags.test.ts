import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BRIDGE_V8_FLAGS } from '../../../main/kernel/v8-flags.js';

const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> })
  .scripts;

describe("the bridge's V8 flags (main/kernel/v8-flags.ts)", () => {
  it.each(['start', 'serve', 'bench'])('npm run %s starts node with every one of them', (name) => {
    const nodeCommand = scripts[name]!.split('&&').at(-1)!.trim();
    expect(nodeCommand.startsWith('node ')).toBe(true);
    for (const flag of BRIDGE_V8_FLAGS) expect(nodeCommand.split(/\s+/)).toContain(flag);
  });
});
