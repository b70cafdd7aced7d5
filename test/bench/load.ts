import http from 'node:http';
import { percentile } from './report.js';

export interface LoadResult {
  requests: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  /** CPU time of this whole process (every thread) per request, µs: the client's share included. */
  cpuUsPerRequest: number;
  /** Every request's latency, ms, in the order they were answered (for combineLoads). */
  latencies: readonly number[];
}

/**
 * Closed-loop load: `concurrency` keep-alive connections, each sending the next request as
 * soon as the last answered, until `requests` are done. Non-2xx answers count as errors.
 */
export async function runLoad(options: {
  url: string;
  method?: string;
  headers?: Record<string, string> | ((i: number) => Record<string, string>);
  body?: string | ((i: number) => string);
  requests: number;
  concurrency: number;
}): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const url = new URL(options.url);
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const one = (i: number) =>
    new Promise<void>((resolve) => {
      const body = typeof options.body === 'function' ? options.body(i) : options.body;
      const headers = typeof options.headers === 'function' ? options.headers(i) : (options.headers ?? {});
      const started = performance.now();
      const req = http.request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          method: options.method ?? 'POST',
          headers: {
            'content-type': 'application/json',
            ...headers,
            ...(body ? { 'content-length': Buffer.byteLength(body) } : {}),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - started);
            if ((res.statusCode ?? 500) >= 300) errors++;
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(body);
    });
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (next < options.requests) await one(next++);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  agent.destroy();
  return {
    requests: options.requests,
    seconds,
    perSecond: options.requests / seconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    errors,
    cpuUsPerRequest: (cpu.user + cpu.system) / options.requests,
    latencies,
  };
}

/** Slices of one load run at different times, as one run: their requests over their summed time. */
export function combineLoads(slices: readonly LoadResult[]): LoadResult {
  const requests = slices.reduce((sum, slice) => sum + slice.requests, 0);
  const seconds = slices.reduce((sum, slice) => sum + slice.seconds, 0);
  const latencies = slices.flatMap((slice) => slice.latencies);
  return {
    requests,
    seconds,
    perSecond: requests / seconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    errors: slices.reduce((sum, slice) => sum + slice.errors, 0),
    cpuUsPerRequest:
      slices.reduce((sum, slice) => sum + slice.cpuUsPerRequest * slice.requests, 0) / requests,
    latencies,
  };
}

/** The usual figures of a load run. */
export const loadFigures = (load: LoadResult) => ({
  'req/s': Math.round(load.perSecond),
  'p50 ms': Number(load.p50Ms.toFixed(2)),
  'p99 ms': Number(load.p99Ms.toFixed(2)),
  errors: load.errors,
  'cpu µs/req': Math.round(load.cpuUsPerRequest),
});

/** A load run's figures with its ratios to the baseline measured in the same run. */
export const comparedTo = (load: LoadResult, baseline: LoadResult) => ({
  ...loadFigures(load),
  'throughput ratio': Number((load.perSecond / baseline.perSecond).toFixed(3)),
  'p99 ratio': Number((load.p99Ms / baseline.p99Ms).toFixed(2)),
  // Steadier than the ratio on a shared host: what the bridge costs beyond the bare handler, client
  // and HTTP being the same on both sides.
  'cpu µs/req over bare': Math.round(load.cpuUsPerRequest - baseline.cpuUsPerRequest),
});
