import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { RenderFormat } from '../../../shared/api/renders.js';
import { ensurePrivateDir } from '../../kernel/private-files.js';

/**
 * Where renders live: `<data dir>/renders/<render id>/<format>.mp4`, folders 0700 like the rest of
 * the data dir. FFmpeg writes `<format>.mp4.part` and the captions' `<format>.ass` beside it; a
 * part becomes the file only when FFmpeg has finished it, so a cancel, a failure or a crash never
 * leaves half a file where a whole one is expected.
 */
export class RenderFiles {
  constructor(readonly root: string) {}

  dirOf(id: string): string {
    return path.join(this.root, id);
  }

  fileOf(id: string, format: RenderFormat): string {
    return path.join(this.dirOf(id), `${format}.mp4`);
  }

  partOf(id: string, format: RenderFormat): string {
    return `${this.fileOf(id, format)}.part`;
  }

  captionsOf(id: string, format: RenderFormat): string {
    return path.join(this.dirOf(id), `${format}.ass`);
  }

  /** The render's folder, made (0700) if missing. */
  prepare(id: string): void {
    ensurePrivateDir(this.root);
    ensurePrivateDir(this.dirOf(id));
  }

  /** What a run leaves besides finished files: parts and caption scripts. */
  removeWorkFiles(id: string, formats: readonly RenderFormat[]): void {
    for (const format of formats) {
      rmSync(this.partOf(id, format), { force: true });
      rmSync(this.captionsOf(id, format), { force: true });
    }
  }

  removeFile(id: string, format: RenderFormat): void {
    rmSync(this.fileOf(id, format), { force: true });
  }

  removeAll(id: string): void {
    rmSync(this.dirOf(id), { recursive: true, force: true });
  }

  /**
   * At start, before any render runs: parts and caption scripts a crash left behind, and folders
   * left empty. `keep`: ids whose folders hold finished files.
   */
  sweep(keep: (id: string) => boolean): void {
    let ids: string[];
    try {
      ids = readdirSync(this.root);
    } catch {
      return;
    }
    for (const id of ids) {
      if (!keep(id)) {
        this.removeAll(id);
        continue;
      }
      for (const name of readdirSync(this.dirOf(id))) {
        if (name.endsWith('.part') || name.endsWith('.ass'))
          rmSync(path.join(this.dirOf(id), name), { force: true });
      }
    }
  }
}
