/**
 * A simulator's world: the one plain object holding everything it keeps across a restart
 * (DESIGN §8: "what the operator changes survives a restart"). Each simulator exposes its world
 * (`peer.world`) and keeps its records in the containers it references: a field added to a world
 * object is saved and restored with no more code. Runtime controls (faults, webhook targets,
 * counters of calls) stay outside the world and start fresh, as a rehearsal should.
 *
 * The containers are restored IN PLACE (a Map is cleared and refilled, an array spliced), so the
 * closures and classes that captured them at start keep working.
 */

/** Maps, Sets, arrays, Dates, plain objects and JSON values, nested freely. */
export type SimulatorWorld = Record<string, unknown>;

export interface HasWorld {
  /** The simulator's persistent state (see the module comment). */
  readonly world: SimulatorWorld;
}

const TAG = '$sandboxType';

/** JSON text of a world; Maps, Sets and Dates are tagged so `parseWorld` brings them back. */
export function serializeWorld(world: SimulatorWorld): string {
  return JSON.stringify(world, function replacer(this: Record<string, unknown>, key, value: unknown) {
    // JSON.stringify has already called Date#toJSON on `value`: the holder has the Date itself.
    const raw = this[key];
    if (raw instanceof Date) return { [TAG]: 'Date', value: raw.toISOString() };
    if (value instanceof Map) return { [TAG]: 'Map', entries: [...value.entries()] };
    if (value instanceof Set) return { [TAG]: 'Set', values: [...value.values()] };
    return value;
  });
}

/** The inverse of `serializeWorld`. Throws on text that is not JSON of an object. */
export function parseWorld(text: string): SimulatorWorld {
  const parsed: unknown = JSON.parse(text, (_key, value: unknown) => {
    if (!isPlainObject(value) || typeof value[TAG] !== 'string') return value;
    if (value[TAG] === 'Date') return new Date(String(value.value));
    if (value[TAG] === 'Map') return new Map(value.entries as Array<[unknown, unknown]>);
    if (value[TAG] === 'Set') return new Set(value.values as unknown[]);
    return value;
  });
  if (!isPlainObject(parsed)) throw new Error('a saved sandbox world is a JSON object');
  return parsed;
}

/**
 * Copies a saved world into the live one, keeping the live containers' identity. Keys the saved
 * world lacks (a field added since it was written) keep their fresh defaults.
 */
export function restoreWorld(target: SimulatorWorld, saved: SimulatorWorld): void {
  for (const [key, value] of Object.entries(saved)) {
    if (!(key in target)) continue; // a field since removed from the simulator
    const current = target[key];
    if (current instanceof Map && value instanceof Map) {
      current.clear();
      for (const [k, v] of value) current.set(k, v);
    } else if (current instanceof Set && value instanceof Set) {
      current.clear();
      for (const v of value) current.add(v);
    } else if (Array.isArray(current) && Array.isArray(value)) {
      current.splice(0, current.length, ...(value as unknown[]));
    } else if (isPlainObject(current) && isPlainObject(value)) {
      restoreWorld(current, value);
    } else {
      target[key] = value;
    }
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
