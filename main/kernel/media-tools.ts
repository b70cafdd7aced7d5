import { execFile } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Which FFmpeg and ffprobe the bridge runs (DESIGN §3, §6.10): FFMPEG_PATH / FFPROBE_PATH, else
 * the first on PATH, else (FFmpeg only) the binary shipped in the `@ffmpeg-installer/ffmpeg`
 * package, FFmpeg 4.1, which has no ffprobe. One locator for every area that reads or writes media.
 */
export interface MediaTool {
  path: string;
  /** setting: FFMPEG_PATH / FFPROBE_PATH; path: found on PATH; npm: the package's binary. */
  source: 'setting' | 'path' | 'npm';
}

export interface MediaTools {
  ffmpeg: MediaTool | null;
  ffprobe: MediaTool | null;
}

function runnable(file: string, platform: NodeJS.Platform): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    // Windows has no execute bit: a file that is there is a program.
    if (platform !== 'win32') accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string | null {
  const list = env.PATH ?? env.Path ?? '';
  const file = platform === 'win32' ? `${name}.exe` : name;
  const delimiter = platform === 'win32' ? ';' : path.delimiter;
  for (const dir of list.split(delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, file);
    if (runnable(candidate, platform)) return candidate;
  }
  return null;
}

/**
 * The npm package's binary. Inside a packaged app it is unpacked beside the archive
 * (electron-builder.yml's asarUnpack), since no program can run from inside app.asar.
 */
export function npmFfmpeg(): string | null {
  try {
    const installer = createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string };
    return outsideAsar(installer.path);
  } catch {
    // No build of it for this platform (an optional dependency npm skipped).
    return null;
  }
}

/** A path into a packaged app's archive, as the same file unpacked beside it. */
export function outsideAsar(file: string): string {
  return file.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}

export function locateMediaTools(
  settings: { ffmpegPath: string | null; ffprobePath: string | null },
  env: NodeJS.ProcessEnv = process.env,
  npmBinary: () => string | null = npmFfmpeg,
  platform: NodeJS.Platform = process.platform,
): MediaTools {
  const find = (name: string, setting: string | null): MediaTool | null => {
    if (setting !== null) return { path: setting, source: 'setting' };
    const found = onPath(name, env, platform);
    return found === null ? null : { path: found, source: 'path' };
  };
  const ffmpeg = find('ffmpeg', settings.ffmpegPath);
  const shipped = ffmpeg ? null : npmBinary();
  return {
    ffmpeg: ffmpeg ?? (shipped === null ? null : { path: shipped, source: 'npm' }),
    ffprobe: find('ffprobe', settings.ffprobePath),
  };
}

/** `ffmpeg version 5.1.9-0+deb12u1 Copyright …` → `5.1.9-0+deb12u1`. */
export function readToolVersion(firstLines: string): string | null {
  return /^ff(?:mpeg|probe) version (\S+)/.exec(firstLines)?.[1] ?? null;
}

const VERSION_TIMEOUT_MS = 10_000;

/** The program's version, as it says it; null when it does not answer. */
export function toolVersion(tool: MediaTool): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(tool.path, ['-version'], { timeout: VERSION_TIMEOUT_MS, encoding: 'utf8' }, (error, stdout) =>
      resolve(error ? null : readToolVersion(stdout)),
    );
  });
}
