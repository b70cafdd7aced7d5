import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBridge, type TestBridge } from '../../support/bridge.js';
import { tempDir } from '../../support/temp-dir.js';

/**
 * Issue #13.4: the dashboard's hashed files may be kept by a browser for good, and go compressed
 * where the build left a compressed copy (the Overview's one script: ~470 kB, ~120 kB as brotli).
 */

const script = `console.log(${JSON.stringify('studio bridge '.repeat(200))});\n`;
const dashboard = tempDir('dashboard-files');
let bridge: TestBridge;

beforeAll(async () => {
  mkdirSync(path.join(dashboard.path, 'assets'));
  writeFileSync(path.join(dashboard.path, 'index.html'), '<!doctype html><title>Studio Bridge</title>');
  writeFileSync(path.join(dashboard.path, 'assets/index-AbC123.js'), script);
  writeFileSync(path.join(dashboard.path, 'assets/index-AbC123.js.br'), brotliCompressSync(script));
  writeFileSync(path.join(dashboard.path, 'assets/index-AbC123.js.gz'), gzipSync(script));
  writeFileSync(path.join(dashboard.path, 'assets/plain-XyZ789.css'), 'body { color: black }\n');
  bridge = await startTestBridge({}, { dashboardDir: dashboard.path });
});
afterAll(async () => {
  await bridge.close();
  dashboard.remove();
});

/** GET with exactly these headers (fetch would add Accept-Encoding and decompress). */
function get(
  urlPath: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`${bridge.url}${urlPath}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the dashboard files', () => {
  it('sends the brotli copy to a browser that accepts it, kept for good, as JavaScript', async () => {
    const response = await get('/assets/index-AbC123.js', { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(response.headers.vary).toMatch(/Accept-Encoding/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(response.body).toString()).toBe(script);
    expect(response.body.length).toBeLessThan(script.length / 5);
  });

  it('sends gzip where brotli is refused, and the file as is where nothing is accepted', async () => {
    const gzip = await get('/assets/index-AbC123.js', { 'Accept-Encoding': 'br;q=0, gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(script);

    const plain = await get('/assets/index-AbC123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('sends a file without a compressed copy as is, and index.html is never kept', async () => {
    const css = await get('/assets/plain-XyZ789.css', { 'Accept-Encoding': 'br, gzip' });
    expect(css.status).toBe(200);
    expect(css.headers['content-encoding']).toBeUndefined();
    expect(css.headers['content-type']).toMatch(/^text\/css/);

    const html = await get('/', { 'Accept-Encoding': 'br, gzip' });
    expect(html.status).toBe(200);
    expect(html.headers['cache-control']).toBe('no-cache');
    expect(html.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('does not step outside the assets folder, and unknown files are the API 404', async () => {
    const outside = await get('/assets/..%2Findex.html.br', { 'Accept-Encoding': 'br' });
    expect(outside.status).toBe(404);
    const missing = await get('/assets/none-000.js', { 'Accept-Encoding': 'br' });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body.toString())).toMatchObject({ success: false });
  });
});
