import { describe, expect, it } from 'vitest';
import { JS_FLAGS_RELAUNCH_MARKER, relaunchArgsForJsFlags } from '../../../main/desktop/js-flags.js';
import { BRIDGE_V8_FLAGS } from '../../../main/kernel/v8-flags.js';

const ours = `--js-flags=${BRIDGE_V8_FLAGS.join(' ')}`;

describe('relaunchArgsForJsFlags (the packaged app gets the V8 flags of npm start)', () => {
  it('an installed app started by the OS, without --js-flags, relaunches with all of the bridge’s flags', () => {
    expect(relaunchArgsForJsFlags([], {})).toEqual([ours]);
    expect(relaunchArgsForJsFlags(['--some-arg', 'file.txt'], {})).toEqual([ours, '--some-arg', 'file.txt']);
  });

  it('the switch carries every flag of main/kernel/v8-flags.ts, in one --js-flags', () => {
    const [jsFlags] = relaunchArgsForJsFlags([], {})!;
    expect(jsFlags!.slice('--js-flags='.length).split(' ')).toEqual([...BRIDGE_V8_FLAGS]);
  });

  it('started as npm start starts it (launch.ts passes the same switch), it does not relaunch', () => {
    expect(relaunchArgsForJsFlags([ours, '/app'], {})).toBeUndefined();
    expect(relaunchArgsForJsFlags(['/app', ours], {})).toBeUndefined();
  });

  it("keeps a user's own --js-flags and adds only the flags missing from it", () => {
    expect(relaunchArgsForJsFlags(['--js-flags=--expose-gc --max-semi-space-size=2', '/app'], {})).toEqual([
      '--js-flags=--expose-gc --max-semi-space-size=2 --heap-growing-percent=50',
      '/app',
    ]);
  });

  it('relaunches at most once: the relaunched app carries the marker and runs with what it has', () => {
    expect(relaunchArgsForJsFlags([], { [JS_FLAGS_RELAUNCH_MARKER]: '1' })).toBeUndefined();
  });
});
