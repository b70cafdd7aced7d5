/**
 * /openapi.json as a contract integrators build on (issue #26): every operation named and
 * summarised, info.version the package's, /events documenting every activity event type, and no
 * breaking change against the committed baseline of the current major (docs/openapi/v0.1.json for
 * 0.1.x: while 0.x the minor counts as the major). Additions pass; a removal or a newly required
 * input fails here, naming it.
 *
 * A new baseline comes only with a version bump: at 0.2.0 (or 1.0.0) this test asks for
 * docs/openapi/v0.2.json, written from the served document by
 * `OPENAPI_WRITE_BASELINE=1 npx vitest run --project integration test/integration/contracts/openapi-baseline.test.ts`.
 * The same command refreshes the current baseline with additions (it refuses breaking changes).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityTypes } from '../../../shared/activity-events.js';
import { startTestBridge, TEST_API_KEY, type TestBridge } from '../../support/bridge.js';
import { baselineName, breakingChanges, type OpenApiDoc } from '../../support/openapi-compat.js';

interface Served extends OpenApiDoc {
  info: { version: string };
  paths: Record<string, Record<string, OpenApiDoc['paths'][string][string] & { summary?: string }>>;
}

const BASELINES = 'docs/openapi';
const packageVersion = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
const baselineFile = path.join(BASELINES, `${baselineName(packageVersion)}.json`);

let bridge: TestBridge;
let served: Served;

beforeAll(async () => {
  bridge = await startTestBridge();
  const answer = await bridge.call('GET', '/openapi.json', { key: TEST_API_KEY });
  expect(answer.status).toBe(200);
  served = answer.body as Served;
  if (process.env.OPENAPI_WRITE_BASELINE === '1') {
    const before = existsSync(baselineFile)
      ? (JSON.parse(readFileSync(baselineFile, 'utf8')) as OpenApiDoc)
      : null;
    if (before && breakingChanges(before, served).length > 0) {
      throw new Error(`not writing ${baselineFile}: breaking changes within ${baselineName(packageVersion)}`);
    }
    writeFileSync(baselineFile, `${JSON.stringify(served, null, 2)}\n`);
  }
});

afterAll(async () => {
  await bridge?.close();
});

const operations = () =>
  Object.entries(served.paths).flatMap(([route, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      name: `${method.toUpperCase()} ${route}`,
      operation,
    })),
  );

describe('GET /openapi.json', () => {
  it('names every operation with a unique operationId and gives it a summary', () => {
    const unnamed = operations().filter(
      ({ operation }) => !operation.operationId || !operation.summary?.trim(),
    );
    expect(unnamed.map(({ name }) => name)).toEqual([]);
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('states the package version as info.version', () => {
    expect(served.info.version).toBe(packageVersion);
  });

  it('documents every activity event type and its data on /events', () => {
    const events = served.paths['/events']!.get!.responses as Record<
      string,
      {
        content: Record<
          string,
          { schema: { oneOf: { properties: { type: { enum: string[] }; data: unknown } }[] } }
        >;
      }
    >;
    const alternatives = events['200']!.content['text/event-stream']!.schema.oneOf;
    expect(alternatives.map((event) => event.properties.type.enum[0])).toEqual([...activityTypes]);
    for (const event of alternatives) expect(event.properties.data).toBeDefined();
  });
});

describe(`the baseline of this major (${baselineFile})`, () => {
  it('is committed, and none of a later major is (a new one comes with the version bump)', () => {
    expect(existsSync(baselineFile), `write it: see this test file's comment`).toBe(true);
    const later = readdirSync(BASELINES)
      .filter((file) => file.endsWith('.json'))
      .map((file) => file.replace(/\.json$/, ''))
      .filter((name) => compareBaselines(name, baselineName(packageVersion)) > 0);
    expect(later).toEqual([]);
  });

  it('is still served: nothing removed, no input newly required', () => {
    const baseline = JSON.parse(readFileSync(baselineFile, 'utf8')) as OpenApiDoc;
    expect(breakingChanges(baseline, served)).toEqual([]);
  });
});

/** Orders baseline names (`v0.1` < `v0.2` < `v1` < `v2`). */
function compareBaselines(a: string, b: string): number {
  const parts = (name: string) => name.slice(1).split('.').map(Number);
  const [aMajor = 0, aMinor = 0] = parts(a);
  const [bMajor = 0, bMinor = 0] = parts(b);
  return aMajor !== bMajor ? aMajor - bMajor : aMinor - bMinor;
}
