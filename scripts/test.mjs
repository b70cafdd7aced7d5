// `npm test`: every tier of the suite. The tiers that can share the machine run side by side (in
// lanes: a lane's tiers one after the other); a tier marked `alone` has the machine to itself,
// after everything before it has ended. `npm test -- unit integration` runs only the tiers named.
// Each tier's output goes to test-results/tiers/<tier>.log; a failed tier's log is printed.
// The tiers' wall times go to test-results/timings/tiers.json (`npm run test:timings` prints them).
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const say = (text) => process.stdout.write(`${text}\n`);

/**
 * In order. Side by side: the checks are short and CPU-bound, the integration and browser tiers
 * mostly wait on servers. Later tiers that must run alone (a real OBS, ≤ 3 min) go last with
 * `alone: true`, so that nothing runs beside them.
 */
const tiers = [
  { name: 'typecheck', script: 'typecheck', lane: 'checks' },
  { name: 'lint', script: 'lint', lane: 'checks' },
  { name: 'unit', script: 'test:unit', lane: 'checks' },
  { name: 'integration', script: 'test:integration', lane: 'integration' },
  { name: 'e2e', script: 'test:e2e', lane: 'browser' },
  { name: 'e2e-renders', script: 'test:e2e:renders', alone: true },
  { name: 'obs', script: 'test:obs', alone: true },
];

const logDir = path.join(root, 'test-results/tiers');
const timingsDir = path.join(root, 'test-results/timings');
const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** Runs one tier's npm script, its output to its log; resolves with how it went. */
function run(tier, started) {
  const logFile = path.join(logDir, `${tier.name}.log`);
  const log = createWriteStream(logFile);
  const at = Date.now();
  say(`▶ ${tier.name} (npm run ${tier.script}) at +${seconds(at - started)}`);
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', tier.script], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: process.platform === 'win32',
    });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.on('close', (code, signal) => {
      log.end(() => {
        const ms = Date.now() - at;
        const ok = code === 0;
        say(
          `${ok ? '✓' : '✗'} ${tier.name} ${ok ? 'passed' : `failed (${signal ?? `exit ${code}`})`} in ${seconds(ms)}`,
        );
        if (!ok) {
          say(`--- ${path.relative(root, logFile)} ---`);
          say(readFileSync(logFile, 'utf8'));
          say(`--- end of ${tier.name} ---`);
        }
        resolve({
          tier: tier.name,
          lane: tier.alone ? 'alone' : tier.lane,
          ok,
          ms,
          startedAtMs: at - started,
        });
      });
    });
  });
}

/** Consecutive tiers that may run side by side form one stage; each `alone` tier is a stage of its own. */
function stages(selected) {
  const result = [];
  for (const tier of selected) {
    const last = result.at(-1);
    if (tier.alone || !last || last.alone) result.push({ alone: Boolean(tier.alone), tiers: [tier] });
    else last.tiers.push(tier);
  }
  return result;
}

async function runStage(stage, started) {
  if (stage.alone) return [await run(stage.tiers[0], started)];
  const lanes = new Map();
  for (const tier of stage.tiers) lanes.set(tier.lane, [...(lanes.get(tier.lane) ?? []), tier]);
  const results = await Promise.all(
    [...lanes.values()].map(async (laneTiers) => {
      const done = [];
      for (const tier of laneTiers) done.push(await run(tier, started));
      return done;
    }),
  );
  return results.flat();
}

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !tiers.some((tier) => tier.name === name));
if (unknown.length > 0) {
  process.stderr.write(
    `unknown tier: ${unknown.join(', ')} (tiers: ${tiers.map((tier) => tier.name).join(', ')})\n`,
  );
  process.exit(2);
}
const selected = asked.length > 0 ? tiers.filter((tier) => asked.includes(tier.name)) : tiers;

mkdirSync(logDir, { recursive: true });
mkdirSync(timingsDir, { recursive: true });
const started = Date.now();
const loadAtStart = load();
const results = [];
for (const stage of stages(selected)) results.push(...(await runStage(stage, started)));
const wallMs = Date.now() - started;

writeFileSync(
  path.join(timingsDir, 'tiers.json'),
  `${JSON.stringify({ wallMs, loadAtStart, loadAtEnd: load(), tiers: results }, null, 1)}\n`,
);
const failed = results.filter((result) => !result.ok);
say(
  `\n${failed.length === 0 ? 'all tiers passed' : `failed: ${failed.map((f) => f.tier).join(', ')}`} in ${seconds(wallMs)} ` +
    `(${results.map((r) => `${r.tier} ${seconds(r.ms)}`).join(', ')}; load average ${loadAtStart} at the start, ${load()} at the end)`,
);
process.exitCode = failed.length === 0 ? 0 : 1;
