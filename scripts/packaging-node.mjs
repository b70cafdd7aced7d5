// Guard of `npm run dist` and `npm run build:native-electron`: packaging needs Electron's tooling
// (electron, electron-builder, @electron/rebuild), optional dependencies of tools/desktop that want
// Node >= 22.12 and that npm skips on older Node. Without this, those scripts would end in a
// "command not found" or a module-not-found stack; with it, one line says what is needed.
import { existsSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const MIN = [22, 12];
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const nodeFits = major !== MIN[0] ? major > MIN[0] : minor >= MIN[1];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Looked up as folders: npm hoists them to the root node_modules, where dist/ and electron-builder
// load them from (require.resolve('x/package.json') would trip on packages whose `exports` hide it).
const installed = (name) => existsSync(path.join(root, 'node_modules', name, 'package.json'));

if (!nodeFits) {
  process.stderr.write(
    `studio-bridge: packaging needs Node ≥ ${MIN.join('.')} (Electron, electron-builder and @electron/rebuild want it); this is Node ${process.versions.node}, which runs, builds and tests everything else\n`,
  );
  process.exitCode = 1;
}
const missing = ['electron', 'electron-builder', '@electron/rebuild'].filter((name) => !installed(name));
if (nodeFits && missing.length > 0) {
  process.stderr.write(
    `studio-bridge: packaging needs ${missing.join(', ')}, not installed: run npm install on this Node ${process.versions.node} first\n`,
  );
  process.exitCode = 1;
}
