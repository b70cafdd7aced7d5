import { readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * OBS's record folder as this machine sees it (issue #38.4): only when OBS runs here (a loopback
 * address) and the folder can be read. A name is taken when a file there has it as its name before
 * the extension, as typed or with its spaces as `_` (OBS's "no spaces" option): OBS would write
 * `… (2)` beside it, a file the bridge never named.
 */
export interface RecordFolder {
  readonly directory: string;
  has(name: string): boolean;
}

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]', '::1']);

export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return LOOPBACK_HOSTS.has(host) || /^127(\.\d{1,3}){3}$/.test(host);
}

/** The folder, or null when OBS is elsewhere or the folder cannot be listed. */
export function recordFolder(obsUrl: string, directory: string | null): RecordFolder | null {
  if (directory === null || !isLoopbackUrl(obsUrl) || !path.isAbsolute(directory)) return null;
  const stems = (): Set<string> | null => {
    try {
      return new Set(
        readdirSync(directory).map((file) => file.slice(0, file.length - path.extname(file).length)),
      );
    } catch {
      return null;
    }
  };
  if (stems() === null) return null;
  return {
    directory,
    has(name) {
      const there = stems();
      return there !== null && (there.has(name) || there.has(name.replaceAll(' ', '_')));
    },
  };
}
