import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TempDir {
  /** Absolute path of the new, empty directory. */
  readonly path: string;
  /** Deletes the directory and everything in it (safe to call twice). */
  remove(): void;
}

/** A fresh directory under the OS temp dir, named `<prefix>-XXXXXX`. */
export function tempDir(prefix: string): TempDir {
  const dir = mkdtempSync(path.join(tmpdir(), `${prefix}-`));
  return { path: dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
