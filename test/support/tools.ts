import { execFileSync } from 'node:child_process';

/**
 * A program a test reads its answer from (ffmpeg, ffprobe, chromium): its path, or null with why.
 * Under CI (`CI=true`, where .ci/run installs them) a missing program fails the test file instead.
 */
export function outsideTool(name: string, envVar?: string): { path: string | null; skipped: string } {
  const fromEnv = envVar ? process.env[envVar]?.trim() : undefined;
  let path = fromEnv || null;
  if (!path) {
    try {
      path = execFileSync('/bin/sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || null;
    } catch {
      path = null;
    }
  }
  if (!path && process.env.CI === 'true')
    throw new Error(`${name} is needed by this test and is not on PATH`);
  return { path, skipped: path ? '' : ` (skipped: ${name} is not on PATH)` };
}
