// `npm install`'s postinstall (DESIGN §9): fetch the Electron binary, so that on a machine with
// internet `npm install && npm start` opens the desktop window.
//
// Why here: Electron 45's package has no install script of its own (its binary is fetched by its
// `install.js`, which `require('electron')` runs lazily and `npx install-electron` runs by hand), so
// nothing in `npm install` downloads it. This root script runs that same install.js, with our own
// exit: where the download fails (offline, a proxy, a firewall) the install still succeeds, with one
// line saying so, and `npm start` serves headless until the binary is there.
//
// Where Electron is not installed (Node < 22.12: npm skips tools/desktop's optional dependencies)
// there is nothing to fetch and this prints nothing. install.js itself returns at once when the
// binary of its version is already there.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const installScript = path.join(root, 'node_modules', 'electron', 'install.js');

if (existsSync(installScript)) {
  // stderr is read, not shown: on failure install.js prints a whole stack; one line of it is enough.
  const result = spawnSync(process.execPath, [installScript], {
    cwd: path.dirname(installScript),
    stdio: ['ignore', 'inherit', 'pipe'],
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    const reason =
      (result.error?.message ?? result.stderr ?? '')
        .split('\n')
        .map((line) => line.trim())
        .find((line) => line !== '') ?? `exit code ${result.status}`;
    process.stderr.write(
      `studio-bridge: Electron's binary could not be downloaded (${reason}); npm start serves headless until \`npx install-electron\` fetches it\n`,
    );
  }
}
