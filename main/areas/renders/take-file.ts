import { execFile } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import type { MediaTools } from '../../kernel/media-tools.js';
import { readFfmpegInfo, readFfprobeJson, type MediaInfo } from './media-info.js';

/** Why the bridge cannot render from a take's file, in words naming it. */
export class TakeFileError extends Error {
  override name = 'TakeFileError';
}

const PROBE_TIMEOUT_MS = 30_000;

const reasons: Record<string, string> = {
  ENOENT: 'there is no such file here',
  EACCES: 'the bridge is not allowed to read it',
  EPERM: 'the bridge is not allowed to read it',
  EISDIR: 'it is a folder',
  ENOTDIR: 'a folder on its path is a file',
};

/**
 * What a render needs of the take's file, read here: refused when the bridge cannot read it (OBS
 * on another machine, the file moved) or FFmpeg finds no video in it. ffprobe when there is one,
 * else FFmpeg's own description of its input (the npm binary ships without ffprobe).
 */
export async function readTakeFile(tools: MediaTools, file: string): Promise<MediaInfo> {
  try {
    await access(file, constants.R_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    throw new TakeFileError(
      `its file ${file} cannot be read by the bridge (${reasons[code] ?? code}): is OBS on another machine, or was the file moved? Render where the file is, or put it back at that path`,
    );
  }
  const info = await probeMedia(tools, file);
  if (!info) throw new TakeFileError(`its file ${file} holds no video FFmpeg can read`);
  return info;
}

/** A media file's length, picture size and audio; null when it holds no video FFmpeg can read. */
export function probeMedia(tools: MediaTools, file: string): Promise<MediaInfo | null> {
  return tools.ffprobe ? ffprobeInfo(tools.ffprobe.path, file) : ffmpegInfo(tools, file);
}

function ffprobeInfo(ffprobe: string, file: string): Promise<MediaInfo | null> {
  const args = [
    '-v',
    'error',
    '-show_entries',
    'format=duration:stream=codec_type,width,height',
    '-of',
    'json',
  ];
  return new Promise((resolve) => {
    execFile(ffprobe, [...args, file], { timeout: PROBE_TIMEOUT_MS, encoding: 'utf8' }, (error, stdout) =>
      resolve(error ? null : readFfprobeJson(stdout)),
    );
  });
}

/** `ffmpeg -i <file>` with no output describes the input on stderr, then exits 1: that is expected. */
function ffmpegInfo(tools: MediaTools, file: string): Promise<MediaInfo | null> {
  if (!tools.ffmpeg) return Promise.resolve(null);
  return new Promise((resolve) => {
    execFile(
      tools.ffmpeg!.path,
      ['-hide_banner', '-nostdin', '-i', file],
      { timeout: PROBE_TIMEOUT_MS, encoding: 'utf8' },
      (_error, _stdout, stderr) => resolve(readFfmpegInfo(stderr)),
    );
  });
}
