import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The nearest directory at or above `start` holding a package.json: the project in development, the
 * app.asar root when packaged. Works from main/ (tsx) and dist/main/ (built) alike.
 */
export function findProjectDir(start: string, exists: (file: string) => boolean = existsSync): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (exists(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json at or above ${start}`);
  }
}
