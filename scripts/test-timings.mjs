// `npm run test:timings`: the last run's time per test file, slowest first, from what the tiers
// wrote to test-results/timings/ (vitest: test/support/timings-reporter.ts; Playwright:
// test/e2e/timings-reporter.ts; the tiers' wall times: scripts/test.mjs). With nothing recorded
// yet it runs `npm test` first. `--all` lists every file (default: the 25 slowest).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const say = (text) => process.stdout.write(`${text}\n`);
const dir = path.join(root, 'test-results/timings');
const recorded = () => (existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.json')) : []);

if (recorded().length === 0) {
  say('no test timings recorded yet: running npm test first');
  spawnSync(process.execPath, [path.join(root, 'scripts/test.mjs')], { cwd: root, stdio: 'inherit' });
}

const read = (name) => JSON.parse(readFileSync(path.join(dir, name), 'utf8'));
const seconds = (ms) => `${(ms / 1000).toFixed(1).padStart(6)} s`;

const names = recorded();
if (names.includes('tiers.json')) {
  const { wallMs, loadAtStart, tiers } = read('tiers.json');
  say(`last npm test: ${seconds(wallMs).trim()} wall (load average at the start ${loadAtStart})`);
  for (const tier of tiers)
    say(
      `  ${seconds(tier.ms)}  ${tier.tier.padEnd(12)} ${tier.ok ? 'passed' : 'FAILED'}, from +${(tier.startedAtMs / 1000).toFixed(0)} s (${tier.lane})`,
    );
  say('');
}

const files = names
  .filter((name) => name !== 'tiers.json')
  .flatMap((name) => {
    const { project, files: timed } = read(name);
    return timed.map((file) => ({ ...file, project }));
  })
  .sort((a, b) => b.ms - a.ms);
const shown = process.argv.includes('--all') ? files : files.slice(0, 25);
const projects = [...new Set(files.map((file) => file.project))];
say(
  `slowest test files (${shown.length} of ${files.length}; ${projects
    .map((project) => {
      const own = files.filter((file) => file.project === project);
      return `${project}: ${own.length} files, ${seconds(own.reduce((sum, file) => sum + file.ms, 0)).trim()} in all`;
    })
    .join('; ')}):`,
);
for (const file of shown)
  say(
    `  ${seconds(file.ms)}  ${file.project.padEnd(18)} ${file.file} (${file.tests} tests${file.state === 'passed' ? '' : `, ${file.state}`})`,
  );
