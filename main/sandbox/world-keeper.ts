/**
 * Keeps the sandbox's world in the data dir (DESIGN §8): demo data is seeded once per data dir
 * and what the operator changes survives a restart.
 *
 * One file, `sandbox-world.json`, holds every simulator's world (common/world.ts). It is written
 * atomically (a 0600 temp file renamed over the old one, never through a link) and debounced: the worlds are compared
 * with what was last written every `intervalMs` and written only when they differ, so a burst of
 * changes is one write and a quiet sandbox writes nothing. Comparing instead of being told of each
 * change catches every change, whoever makes it: REST calls, the provider publishing a due post
 * as it is read, the simulated OBS's buttons, and fields other simulators add later.
 */
import { renameSync } from 'node:fs';
import path from 'node:path';
import { readPrivateText, writePrivateFile } from '../kernel/private-files.js';
import {
  parseWorld,
  restoreWorld,
  serializeWorld,
  type HasWorld,
  type SimulatorWorld,
} from './common/world.js';

export const WORLD_FILE = 'sandbox-world.json';
const FORMAT = 1;

export interface WorldKeeperOptions {
  /** The data dir the file lives in. */
  dir: string;
  /** The simulators, by a stable name (the file's keys). */
  peers: Record<string, HasWorld>;
  /** How often the worlds are compared with the file (default 2 s). */
  intervalMs?: number;
  /** Where a file that cannot be read is reported (it is set aside, never deleted). */
  warn?: (message: string) => void;
}

export class WorldKeeper {
  readonly file: string;
  #written = '';
  #timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: WorldKeeperOptions) {
    this.file = path.join(options.dir, WORLD_FILE);
  }

  /**
   * Restores every simulator from the file. false: there is no usable file (a new data dir, or
   * one the sandbox never wrote), and the caller seeds the demo world.
   */
  restore(): boolean {
    // A link in its place is refused, not set aside: the data dir's files are the bridge's own (issue #35.5).
    const text = readPrivateText(this.file);
    if (text === null) return false;
    let saved: Record<string, SimulatorWorld>;
    try {
      saved = worldsOf(parseWorld(text));
    } catch (error) {
      const aside = `${this.file}.unreadable-${Date.now()}`;
      renameSync(this.file, aside);
      this.options.warn?.(
        `sandbox: ${this.file} could not be read (${(error as Error).message}); set aside as ${aside}, demo data seeded afresh`,
      );
      return false;
    }
    for (const [name, peer] of Object.entries(this.options.peers)) {
      const world = saved[name];
      if (world) restoreWorld(peer.world, world);
    }
    this.#written = this.#serialize();
    return true;
  }

  /** Writes now when the worlds changed since the last write. */
  save(): void {
    const text = this.#serialize();
    if (text === this.#written) return;
    try {
      writePrivateFile(this.file, text);
      this.#written = text;
    } catch (error) {
      // A full disk must not stop the sandbox: the next tick tries again.
      this.options.warn?.(`sandbox: the world could not be saved: ${(error as Error).message}`);
    }
  }

  start(): void {
    this.#timer ??= setInterval(() => this.save(), this.options.intervalMs ?? 2_000);
    this.#timer.unref();
  }

  /** Stops the timer and writes what changed since the last tick. */
  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.save();
  }

  #serialize(): string {
    const peers = Object.fromEntries(Object.entries(this.options.peers).map(([name, p]) => [name, p.world]));
    return serializeWorld({ format: FORMAT, peers });
  }
}

function worldsOf(file: SimulatorWorld): Record<string, SimulatorWorld> {
  if (file.format !== FORMAT) throw new Error(`format ${String(file.format)}, expected ${FORMAT}`);
  const peers = file.peers;
  if (typeof peers !== 'object' || peers === null) throw new Error('no peers');
  return peers as Record<string, SimulatorWorld>;
}
