import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileReply, textReply, type FileReply } from '../../../main/areas/area.js';
import { errorHandler } from '../../../main/http/send-error.js';
import { sendFileReply } from '../../../main/http/send-file.js';

/**
 * Issue #37.3: a handler answers a file by returning a FileReply; http/ sends it with one byte
 * range when asked (206, 416 past the end, Accept-Ranges) and HEAD without the body, whether the
 * file is on disk (a render to play) or text in memory (an export).
 */
const dir = mkdtempSync(path.join(tmpdir(), 'send-file-'));
const onDisk = path.join(dir, 'take.mp4');
const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
const text = 'TITLE: Café\nFCM: NON-DROP FRAME\n';

let server: Server;
let base: string;

beforeAll(async () => {
  writeFileSync(onDisk, bytes);
  const app = express();
  const route = (url: string, reply: () => FileReply) =>
    app.get(url, async (req, res, next) => {
      try {
        await sendFileReply(req, res, reply());
      } catch (error) {
        next(error);
      }
    });
  route('/render', () =>
    fileReply(
      { path: onDisk },
      { type: 'video/mp4', downloadName: 'Épisode 1.mp4', cache: 'private, max-age=60' },
    ),
  );
  route('/gone', () => fileReply({ path: path.join(dir, 'never-written.mp4') }, { type: 'video/mp4' }));
  route('/edl', () =>
    textReply(text, { type: 'text/plain', downloadName: 'ep1.edl', headers: { 'X-Frame-Rate': '25' } }),
  );
  app.use(errorHandler(pino({ level: 'silent' })));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}, method = 'GET') =>
  fetch(base + url, { method, headers });

describe('a file on disk', () => {
  it('whole: its type, download name (ASCII and UTF-8), cache rule, length and Accept-Ranges', async () => {
    const answer = await get('/render');
    expect(answer.status).toBe(200);
    expect(Object.fromEntries(answer.headers)).toMatchObject({
      'accept-ranges': 'bytes',
      'content-type': 'video/mp4',
      'content-length': '1000',
      'content-disposition': `attachment; filename="Episode 1.mp4"; filename*=UTF-8''%C3%89pisode%201.mp4`,
      'cache-control': 'private, max-age=60',
    });
    expect(answer.headers.get('last-modified')).not.toBeNull();
    expect(Buffer.from(await answer.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('a byte range: 206 with Content-Range and those bytes only; a suffix range too', async () => {
    const part = await get('/render', { Range: 'bytes=100-199' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 100-199/1000');
    expect(part.headers.get('content-length')).toBe('100');
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);
    const tail = await get('/render', { Range: 'bytes=-50' });
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe('bytes 950-999/1000');
    expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(950))).toBe(true);
  });

  it('a range past the end: 416 with Content-Range bytes */size and the error envelope', async () => {
    const refused = await get('/render', { Range: 'bytes=5000-' });
    expect(refused.status).toBe(416);
    expect(refused.headers.get('content-range')).toBe('bytes */1000');
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    expect(refused.headers.get('content-disposition')).toBeNull();
    expect(await refused.json()).toMatchObject({
      success: false,
      code: 'RANGE_NOT_SATISFIABLE',
      error: 'Range: "bytes=5000-" starts past the end (1000 bytes)',
    });
  });

  it('HEAD: the headers of the whole, or of the range, without a body', async () => {
    const head = await get('/render', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('1000');
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    const headPart = await get('/render', { Range: 'bytes=0-9' }, 'HEAD');
    expect(headPart.status).toBe(206);
    expect(headPart.headers.get('content-range')).toBe('bytes 0-9/1000');
    expect((await headPart.arrayBuffer()).byteLength).toBe(0);
  });

  it('a file no longer there: 404 NOT_FOUND', async () => {
    const gone = await get('/gone');
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({
      code: 'NOT_FOUND',
      error: 'never-written.mp4: no longer on disk',
    });
  });
});

describe('text in memory', () => {
  const whole = Buffer.from(text);

  it('whole: UTF-8, its name, no-store, its own headers, an ETag', async () => {
    const answer = await get('/edl');
    expect(answer.status).toBe(200);
    expect(Object.fromEntries(answer.headers)).toMatchObject({
      'accept-ranges': 'bytes',
      'content-type': 'text/plain; charset=utf-8',
      'content-disposition': 'attachment; filename="ep1.edl"',
      'cache-control': 'no-store',
      'x-frame-rate': '25',
    });
    expect(answer.headers.get('etag')).not.toBeNull();
    expect(await answer.text()).toBe(text);
  });

  it('a byte range: 206 with the ETag of the whole; 416 past the end; HEAD without a body', async () => {
    const etag = (await get('/edl')).headers.get('etag');
    const part = await get('/edl', { Range: 'bytes=7-11' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 7-11/${whole.length}`);
    expect(part.headers.get('etag')).toBe(etag);
    expect(Buffer.from(await part.arrayBuffer()).equals(whole.subarray(7, 12))).toBe(true);
    const refused = await get('/edl', { Range: `bytes=${whole.length}-` });
    expect(refused.status).toBe(416);
    expect(refused.headers.get('content-range')).toBe(`bytes */${whole.length}`);
    expect(await refused.json()).toMatchObject({ code: 'RANGE_NOT_SATISFIABLE' });
    const head = await get('/edl', { Range: 'bytes=0-4' }, 'HEAD');
    expect(head.status).toBe(206);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('several ranges, a malformed one, another unit or an If-Range: the whole', async () => {
    const wholeAnswers: Record<string, string>[] = [
      { Range: 'bytes=0-1,5-6' },
      { Range: 'bytes=x-y' },
      { Range: 'items=0-1' },
      { Range: 'bytes=0-1', 'If-Range': '"abc"' },
    ];
    for (const headers of wholeAnswers) {
      const answer = await get('/edl', headers);
      expect(answer.status, JSON.stringify(headers)).toBe(200);
      expect(await answer.text()).toBe(text);
    }
  });
});
