import Database from 'better-sqlite3';

type StatementMethod = (
  this: { source: string; database: { readonly: boolean } },
  ...args: unknown[]
) => unknown;

/**
 * Where a path's SQLite time goes: wraps better-sqlite3's statement methods (one prototype for
 * every statement of every connection in this process) with a clock, per SQL text. The clock
 * itself costs a little, so the bench runs this on a separate, shorter load, never on the one
 * whose throughput it reports.
 */
export function timeStatements(): { stop(): StatementTimes } {
  const probe = new Database(':memory:');
  const prototype = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, StatementMethod>;
  probe.close();
  const totals = new Map<string, { calls: number; ns: bigint }>();
  const originals = new Map<string, StatementMethod>();
  for (const method of ['run', 'get', 'all']) {
    const original = prototype[method]!;
    originals.set(method, original);
    prototype[method] = function timed(this: { source: string; database: { readonly: boolean } }, ...args) {
      // The bench's own read-only look into the database is not the bridge's work.
      if (this.database.readonly) return original.apply(this, args);
      const started = process.hrtime.bigint();
      try {
        return original.apply(this, args);
      } finally {
        // The clock stops before the SQL text is tidied for the report: that is the clock's work.
        const elapsed = process.hrtime.bigint() - started;
        const sql = this.source.replace(/\s+/g, ' ').trim();
        const total = totals.get(sql) ?? { calls: 0, ns: 0n };
        total.calls++;
        total.ns += elapsed;
        totals.set(sql, total);
      }
    };
  }
  return {
    stop() {
      for (const [method, original] of originals) prototype[method] = original;
      return new StatementTimes(totals);
    },
  };
}

export class StatementTimes {
  constructor(private readonly totals: ReadonlyMap<string, { calls: number; ns: bigint }>) {}

  /** Microseconds of SQLite per request, all statements together. */
  perRequestUs(requests: number): number {
    let ns = 0n;
    for (const total of this.totals.values()) ns += total.ns;
    return Number(ns) / 1000 / requests;
  }

  /** The costliest statements: µs per request, calls per request, µs per call, the SQL's start. */
  top(requests: number, count: number): string[] {
    return [...this.totals]
      .sort((a, b) => Number(b[1].ns - a[1].ns))
      .slice(0, count)
      .map(([sql, total]) => {
        const us = Number(total.ns) / 1000;
        return `${(us / requests).toFixed(1).padStart(6)} µs/req ${(total.calls / requests).toFixed(2).padStart(5)} calls/req ${(us / total.calls).toFixed(1).padStart(6)} µs/call  ${sql.slice(0, 80)}`;
      });
  }
}
