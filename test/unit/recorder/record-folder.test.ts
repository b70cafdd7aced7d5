import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isLoopbackUrl, recordFolder } from '../../../main/areas/recorder/record-folder.js';
import { tempDir } from '../../support/temp-dir.js';

const videos = tempDir('record-folder');
afterAll(() => videos.remove());

describe("OBS's record folder (issue #38.4)", () => {
  it('is looked at only when OBS is on this machine', () => {
    for (const url of [
      'ws://127.0.0.1:4455',
      'ws://localhost:4455',
      'ws://[::1]:4455',
      'ws://127.1.2.3:4455',
    ])
      expect(isLoopbackUrl(url), url).toBe(true);
    for (const url of [
      'ws://192.168.1.20:4455',
      'ws://obs.studio.lan:4455',
      'not a url',
      'ws://127.0.0.1.evil:1',
    ])
      expect(isLoopbackUrl(url), url).toBe(false);
    expect(recordFolder('ws://192.168.1.20:4455', videos.path)).toBeNull();
  });

  it('is null when it cannot be listed or is not an absolute path', () => {
    expect(recordFolder('ws://127.0.0.1:4455', path.join(videos.path, 'missing'))).toBeNull();
    expect(recordFolder('ws://127.0.0.1:4455', 'Videos')).toBeNull();
    expect(recordFolder('ws://127.0.0.1:4455', null)).toBeNull();
  });

  it('has a name whose file is there with any extension, as typed or with _ for spaces', () => {
    writeFileSync(path.join(videos.path, 'ep 1.mkv'), '');
    writeFileSync(path.join(videos.path, 'ep_2.mp4'), '');
    const folder = recordFolder('ws://127.0.0.1:4455', videos.path)!;
    expect(folder.has('ep 1')).toBe(true);
    expect(folder.has('ep 2')).toBe(true);
    expect(folder.has('ep 3')).toBe(false);
    // Read at every question: a file written since counts.
    writeFileSync(path.join(videos.path, 'ep 3.mov'), '');
    expect(folder.has('ep 3')).toBe(true);
  });
});
