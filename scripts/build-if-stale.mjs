// `npm start` / `npm run serve`: build only when a source changed since the last build, so a
// second start goes straight to the app. The fingerprint is every input file's path, size and
// mtime (a deleted or added file changes it too), kept in dist/.build-stamp after a good build.
import { execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const inputs = [
  'main',
  'shared',
  'renderer',
  'package.json',
  'package-lock.json',
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

const current = fingerprint();
const built = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : '';
const outputsThere = ['dist/main/launch.js', 'dist/renderer/index.html'].every((file) =>
  existsSync(path.join(root, file)),
);
if (built === current && outputsThere) {
  process.stdout.write('studio-bridge: build is up to date\n');
} else {
  execSync('npm run build --silent', { cwd: root, stdio: 'inherit' });
  writeFileSync(stampFile, `${current}\n`);
}
