/**
 * The packaged app's V8 flags (DESIGN §9: the same as `npm start`'s, main/kernel/v8-flags.ts).
 *
 * `npm start` passes them to Electron as `--js-flags=...` (main/launch.ts). An installed app is started
 * by the OS with no such switch, and the main process's V8 (where the bridge runs) reads --js-flags
 * only from the command line it was started with: `app.commandLine.appendSwitch('js-flags', ...)`
 * reaches the renderer processes only (electron-builder#3781), and no packaging option sets it. So
 * main.ts relaunches the app once with the switch added; the environment marker below makes that
 * at most one relaunch, whatever Electron does with the switch.
 */
import { BRIDGE_V8_FLAGS } from '../kernel/v8-flags.js';

/** Set in the environment of the relaunched app. */
export const JS_FLAGS_RELAUNCH_MARKER = 'STUDIO_BRIDGE_JS_FLAGS_RELAUNCHED';

const SWITCH = '--js-flags=';

/**
 * The arguments to relaunch with (`app.relaunch({ args })`: process.argv without its executable) when
 * they lack any of the bridge's V8 flags, else undefined. A user's own --js-flags are kept: ours are
 * added to the same switch (Chromium reads the last --js-flags only).
 */
export function relaunchArgsForJsFlags(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  flags: readonly string[] = BRIDGE_V8_FLAGS,
): string[] | undefined {
  if (env[JS_FLAGS_RELAUNCH_MARKER] !== undefined) return undefined;
  const given = args
    .filter((arg) => arg.startsWith(SWITCH))
    .flatMap((arg) => arg.slice(SWITCH.length).split(/\s+/))
    .filter((flag) => flag !== '');
  const missing = flags.filter((flag) => !given.includes(flag));
  if (missing.length === 0) return undefined;
  return [`${SWITCH}${[...given, ...missing].join(' ')}`, ...args.filter((arg) => !arg.startsWith(SWITCH))];
}
