/**
 * Runs the preload the way Electron runs a sandboxed preload: tsc's CommonJS output for preload.cts,
 * wrapped in Electron's function(require, process, Buffer, global, setImmediate, clearImmediate,
 * exports, module), with a `require` that knows only 'electron'. ESM syntax or a require of anything
 * else fails here as it would in the window.
 */
import { readFileSync } from 'node:fs';
import { createContext, runInContext } from 'node:vm';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { API_KEY_CHANNEL, encodeLaunchArg } from '../../../main/desktop/preload-args.js';

const preloadFile = new URL('../../../main/desktop/preload.cts', import.meta.url);
const compiled = ts.transpileModule(readFileSync(preloadFile, 'utf8'), {
  fileName: 'preload.cts',
  compilerOptions: {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    verbatimModuleSyntax: true,
  },
}).outputText;

type PreloadFunction = (...args: unknown[]) => void;

function runPreload(argv: string[], apiKeyAnswer: unknown) {
  const exposed = new Map<string, unknown>();
  const required: string[] = [];
  const sent: string[] = [];
  const errors: string[] = [];
  const electron = {
    contextBridge: { exposeInMainWorld: (name: string, value: unknown) => exposed.set(name, value) },
    ipcRenderer: {
      sendSync: (channel: string) => {
        sent.push(channel);
        return apiKeyAnswer;
      },
    },
  };
  const sandboxRequire = (name: string): unknown => {
    required.push(name);
    if (name === 'electron') return electron;
    throw new Error(`module not found: ${name}`);
  };
  const context = createContext({ console: { error: (message: string) => errors.push(message) } });
  const wrapper = runInContext(
    `(function(require, process, Buffer, global, setImmediate, clearImmediate, exports, module) {\n${compiled}\n})`,
    context,
  ) as PreloadFunction;
  const exports = {};
  wrapper(sandboxRequire, { argv, platform: 'linux' }, undefined, context, undefined, undefined, exports, {
    exports,
  });
  return { exposed, required, sent, errors };
}

const launch = { bridgeUrl: 'http://127.0.0.1:4100', platform: 'darwin', version: '0.1.0' };
const electronArgv = [
  '/Applications/Studio Bridge.app/Contents/Frameworks/Helper (Renderer)',
  '--type=renderer',
];

describe('preload (as a sandboxed preload)', () => {
  it('compiles to CommonJS without import/export statements', () => {
    expect(compiled).toContain('require("electron")');
    expect(compiled).not.toMatch(/^\s*(import|export)\s/m);
  });

  it('exposes window.studioBridge from the launch argument and the key from IPC', () => {
    const run = runPreload([...electronArgv, encodeLaunchArg(launch), '--enable-sandbox'], 'k3y');
    expect(run.required).toEqual(['electron']);
    expect(run.sent).toEqual([API_KEY_CHANNEL]);
    expect([...run.exposed.keys()]).toEqual(['studioBridge']);
    const api = run.exposed.get('studioBridge');
    expect(JSON.parse(JSON.stringify(api))).toEqual({ ...launch, apiKey: 'k3y' });
    expect(Object.isFrozen(api)).toBe(true);
    expect(run.errors).toEqual([]);
  });

  it('keeps characters that command lines mangle', () => {
    const odd = {
      bridgeUrl: 'http://[::1]:4100/a b?x="1"&y=\'2\'',
      platform: 'win32',
      version: '1.0.0-beta+1 ✓',
    };
    const api = runPreload([encodeLaunchArg(odd)], 'k').exposed.get('studioBridge');
    expect(JSON.parse(JSON.stringify(api))).toEqual({ ...odd, apiKey: 'k' });
  });

  it('exposes nothing when the launch argument is missing or malformed', () => {
    for (const argv of [
      electronArgv,
      ['--studio-bridge=%E0%A4%A'],
      ['--studio-bridge=' + encodeURIComponent('[1,2]')],
      ['--studio-bridge=' + encodeURIComponent(JSON.stringify({ ...launch, version: 1 }))],
    ]) {
      const run = runPreload(argv, 'k');
      expect(run.exposed.size).toBe(0);
      expect(run.errors).toHaveLength(1);
    }
  });

  it('exposes nothing when the main process withholds the key (frame not on the bridge origin)', () => {
    expect(runPreload([encodeLaunchArg(launch)], null).exposed.size).toBe(0);
  });
});
