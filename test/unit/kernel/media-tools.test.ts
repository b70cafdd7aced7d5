import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { locateMediaTools, readToolVersion } from '../../../main/kernel/media-tools.js';
import { tempDir, type TempDir } from '../../support/temp-dir.js';

let dir: TempDir;
const program = (folder: string, name: string) => {
  mkdirSync(path.join(dir.path, folder), { recursive: true });
  const file = path.join(dir.path, folder, name);
  writeFileSync(file, '#!/bin/sh\n');
  chmodSync(file, 0o755);
  return file;
};

beforeEach(() => {
  dir = tempDir('media-tools');
});
afterEach(() => dir.remove());

describe('locateMediaTools: FFMPEG_PATH / FFPROBE_PATH, else PATH, else the npm binary', () => {
  it('takes the settings first', () => {
    const ffmpeg = program('set', 'ffmpeg');
    const ffprobe = program('set', 'ffprobe');
    program('bin', 'ffmpeg');
    const tools = locateMediaTools(
      { ffmpegPath: ffmpeg, ffprobePath: ffprobe },
      { PATH: path.join(dir.path, 'bin') },
      () => '/npm/ffmpeg',
    );
    expect(tools).toEqual({
      ffmpeg: { path: ffmpeg, source: 'setting' },
      ffprobe: { path: ffprobe, source: 'setting' },
    });
  });

  it('looks on PATH, in order, for programs it may run', () => {
    const notExecutable = path.join(dir.path, 'first', 'ffmpeg');
    mkdirSync(path.dirname(notExecutable));
    writeFileSync(notExecutable, 'not a program');
    const ffmpeg = program('second', 'ffmpeg');
    const ffprobe = program('second', 'ffprobe');
    const PATH = [path.join(dir.path, 'first'), path.join(dir.path, 'second')].join(path.delimiter);
    expect(locateMediaTools({ ffmpegPath: null, ffprobePath: null }, { PATH }, () => '/npm/ffmpeg')).toEqual({
      ffmpeg: { path: ffmpeg, source: 'path' },
      ffprobe: { path: ffprobe, source: 'path' },
    });
  });

  it('falls back to the npm binary for FFmpeg (it ships no ffprobe), or to nothing', () => {
    const none = { ffmpegPath: null, ffprobePath: null };
    expect(locateMediaTools(none, { PATH: dir.path }, () => '/npm/ffmpeg')).toEqual({
      ffmpeg: { path: '/npm/ffmpeg', source: 'npm' },
      ffprobe: null,
    });
    expect(locateMediaTools(none, { PATH: dir.path }, () => null)).toEqual({ ffmpeg: null, ffprobe: null });
  });

  it('looks for ffmpeg.exe on Windows, through Path as Windows spells it', () => {
    const exe = program('win', 'ffmpeg.exe');
    const tools = locateMediaTools(
      { ffmpegPath: null, ffprobePath: null },
      { Path: path.join(dir.path, 'win') },
      () => null,
      'win32',
    );
    expect(tools.ffmpeg).toEqual({ path: exe, source: 'path' });
  });
});

describe('readToolVersion', () => {
  it('reads the version from the first line of -version', () => {
    expect(
      readToolVersion(
        'ffmpeg version 5.1.9-0+deb12u1 Copyright (c) 2000-2026 the FFmpeg developers\nbuilt with gcc 12',
      ),
    ).toBe('5.1.9-0+deb12u1');
    expect(
      readToolVersion(
        'ffmpeg version N-47683-g0e8eb07980-static https://johnvansickle.com/ffmpeg/  Copyright (c) 2000-2018 the FFmpeg developers',
      ),
    ).toBe('N-47683-g0e8eb07980-static');
    expect(readToolVersion('ffprobe version 5.1.9-0+deb12u1 Copyright')).toBe('5.1.9-0+deb12u1');
    expect(readToolVersion('bash: ffmpeg: command not found')).toBeNull();
  });
});
