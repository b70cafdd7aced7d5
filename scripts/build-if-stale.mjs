// `npm start` / `npm run serve`: build only when a source changed since the last build, so a
// second start goes straight to the app. The fingerprint is every input file's path, size and
// mtime (a deleted or added file changes it too), kept in dist/.build-stamp after a good build.
// `npm run build` itself ends with `node scripts/build-if-stale.mjs --stamp`, so a tree built by
// hand (or by `npm test`) counts as up to date too.
import { execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const inputs = [
  'main',
  'shared',
  'renderer',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.base.json',
  'tsconfig.build.json',
];
const stampFile = path.join(root, 'dist', '.build-stamp');

function* files(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return;
  if (!statSync(full).isDirectory()) {
    yield entry;
    return;
  }
  for (const child of readdirSync(full).sort()) {
    if (child === 'node_modules') continue;
    yield* files(path.join(entry, child));
  }
}

function fingerprint() {
  const hash = createHash('sha256');
  for (const input of inputs) {
    for (const file of files(input)) {
      const { size, mtimeMs } = statSync(path.join(root, file));
      hash.update(`${file}\0${size}\0${mtimeMs}\n`);
    }
  }
  return hash.digest('hex');
}

if (process.argv.includes('--stamp')) {
  // After a good build: the inputs as they are now are what dist/ was built from.
  writeFileSync(stampFile, `${fingerprint()}\n`);
} else {
  const built = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : '';
  const outputsThere = ['dist/main/launch.js', 'dist/renderer/index.html'].every((file) =>
    existsSync(path.join(root, file)),
  );
  if (built === fingerprint() && outputsThere) {
    process.stdout.write('studio-bridge: build is up to date\n');
  } else {
    // `npm run build` writes the stamp when it succeeds (and throws here when it fails). Quiet:
    // Vite prints only warnings and errors (renderer/vite.config.ts), and this one line says
    // what happened instead of its 25-line file table.
    const started = performance.now();
    execSync('npm run build --silent', {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, STUDIO_BRIDGE_QUIET_BUILD: '1' },
    });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stdout.write(`studio-bridge: sources changed, bridge and dashboard built in ${seconds} s\n`);
  }
}
