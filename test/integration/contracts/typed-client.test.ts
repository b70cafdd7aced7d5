/**
 * The contract as an integrator uses it (issue #26): types generated with openapi-typescript from the
 * document the bridge serves, calls made through openapi-fetch (typed-client/calls.ts: schedule a
 * post, set the recorder's filename, read the guest pipeline, a 400 read as the typed error).
 * The calls must type-check against the generated types, and then work against a real bridge whose
 * peers are the simulators.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxPeers, type SandboxPeers } from '../../../main/sandbox/index.js';
import { startTestBridge, TEST_API_KEY, type TestBridge } from '../../support/bridge.js';

const clientDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'typed-client');
const generatedDir = path.join(clientDir, 'generated');

let peers: SandboxPeers;
let bridge: TestBridge;

beforeAll(async () => {
  peers = await startSandboxPeers();
  bridge = await startTestBridge({
    CRM_URL: peers.crm.url,
    CRM_API_KEY: peers.crm.apiKey,
    POSTSVC_URL: peers.postsvc.url,
    POSTSVC_API_KEY: peers.postsvc.apiKey,
    POSTSVC_PLAN: 'business',
  });
  const served = await fetch(`${bridge.url}/openapi.json`, { headers: { 'X-Api-Key': TEST_API_KEY } });
  // Not committed (.gitignore): the types of the document served now.
  mkdirSync(generatedDir, { recursive: true });
  writeFileSync(
    path.join(generatedDir, 'bridge-api.d.ts'),
    astToString(await openapiTS(await served.text())),
  );
}, 60_000);

afterAll(async () => {
  await bridge?.close();
  await peers?.stop();
});

const MISUSE = [
  "import createClient from 'openapi-fetch';",
  "import type { paths } from './bridge-api.js';",
  'const bridge = createClient<paths>({});',
  "void bridge.POST('/postsvc/schedule', { body: { post: 1, platforms: ['myspace'] } });",
  "void bridge.POST('/api/recorder/filename', { body: {} });",
  "void bridge.GET('/no/such/route');",
].join('\n');

/** tsc's diagnostics per file name, with tsconfig.base.json's checks, in one program (a few seconds each). */
function typeErrors(files: string[]): Map<string, string[]> {
  const program = ts.createProgram(files, {
    strict: true,
    noUncheckedIndexedAccess: true,
    esModuleInterop: true,
    verbatimModuleSyntax: true,
    skipLibCheck: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    types: [],
    noEmit: true,
  });
  const errors = new Map<string, string[]>(files.map((file) => [path.basename(file), []]));
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const file = diagnostic.file ? path.basename(diagnostic.file.fileName) : '';
    errors.set(file, [
      ...(errors.get(file) ?? []),
      ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
    ]);
  }
  return errors;
}

describe('a client generated from GET /openapi.json', () => {
  it('type-checks the integrator’s calls against the generated types, and refuses calls the contract does not allow', () => {
    // The misuse proves the check can fail: wrong body types, a missing field, an unknown path.
    const misuse = path.join(generatedDir, 'misuse.ts');
    writeFileSync(misuse, MISUSE);
    const errors = typeErrors([path.join(clientDir, 'calls.ts'), misuse]);
    expect(errors.get('calls.ts')).toEqual([]);
    expect(errors.get('misuse.ts')!.length).toBeGreaterThanOrEqual(3);
    expect([...errors.keys()].sort()).toEqual(['calls.ts', 'misuse.ts']);
  }, 90_000);

  it('schedules a post, sets the filename, reads the pipeline and reads a 400 as the typed error', async () => {
    // By a path tsc does not follow: calls.ts compiles only once the types are generated.
    const { integratorCalls } = (await import(path.join(clientDir, 'calls.ts'))) as {
      integratorCalls(baseUrl: string, key: string): Promise<Record<string, unknown> & { counts?: object }>;
    };
    const result = await integratorCalls(bridge.url, TEST_API_KEY);
    expect(result.scheduledStatus).toBe(200);
    expect(result.post).toMatchObject({ id: expect.any(String), status: 'scheduled' });
    expect(result.recorded).toBe('episode-42_take-1');
    expect(result.total).toEqual(expect.any(Number));
    expect(Object.keys(result.counts ?? {})).not.toHaveLength(0);
    expect(result.refusedStatus).toBe(400);
    expect(result.error).toMatchObject({
      success: false,
      code: 'VALIDATION_ERROR',
      error: expect.stringMatching(/post|platforms/),
    });
  });
});
