import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import express from 'express';

/**
 * The dashboard's built files (dist/renderer). Files under `assets/` carry a content hash in
 * their names, so a browser may keep them for good (`immutable`: a reload asks for nothing but
 * index.html, which is never cached). Where the build wrote a compressed copy next to a file
 * (`.br`, `.gz`: renderer/vite.config.ts), that copy is sent to a browser that accepts it:
 * the initial script is ~470 kB as is and ~120 kB as brotli, which a phone on the LAN notices.
 */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const encodings = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

export function dashboardFiles(dir: string): express.RequestHandler {
  const assetsDir = path.join(dir, 'assets');
  const plain = express.static(dir, {
    index: 'index.html',
    maxAge: '1h',
    setHeaders: (res, file) => {
      if (file.endsWith('.html')) res.setHeader('Cache-Control', 'no-cache');
      else if (path.dirname(file) === assetsDir) res.setHeader('Cache-Control', IMMUTABLE);
    },
  });
  // Listed once: a rebuild while running changes the names (hashes), and a name not listed is
  // simply sent uncompressed.
  const compressed = new Set(existsSync(assetsDir) ? readdirSync(assetsDir) : []);
  // What the folder holds at its top (index.html, assets, the favicon…): any other path is the API's,
  // passed on at once instead of costing a file-system lookup on every API GET.
  const topLevel = new Set(readdirSync(dir));

  return (req, res, next) => {
    if (req.path !== '/' && !topLevel.has(req.path.split('/')[1] ?? '')) {
      next();
      return;
    }
    const name = compressedAssetName(req);
    const encoding = name === null ? undefined : acceptedEncoding(req, name, compressed);
    if (name === null || encoding === undefined) {
      plain(req, res, next);
      return;
    }
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('Content-Encoding', encoding.name);
    res.setHeader('Cache-Control', IMMUTABLE);
    res.type(path.extname(name));
    res.sendFile(
      path.join(assetsDir, `${name}${encoding.suffix}`),
      { cacheControl: false, dotfiles: 'deny' },
      (error?: Error) => {
        if (!error) return;
        // Gone since the listing (a rebuild): the uncompressed file, if any, is the answer.
        if (res.headersSent) return next(error);
        res.removeHeader('Content-Encoding');
        res.removeHeader('Content-Type');
        plain(req, res, next);
      },
    );
  };
}

/** `index-abc123.js` for GET/HEAD `/assets/index-abc123.js` (a plain name, no folders); else null. */
function compressedAssetName(req: express.Request): string | null {
  if (req.method !== 'GET' && req.method !== 'HEAD') return null;
  const match = /^\/assets\/([\w.-]+\.(?:js|css))$/.exec(req.path);
  return match?.[1] ?? null;
}

function acceptedEncoding(
  req: express.Request,
  name: string,
  compressed: ReadonlySet<string>,
): (typeof encodings)[number] | undefined {
  const accepted = String(req.headers['accept-encoding'] ?? '')
    .split(',')
    .map((part) => part.trim().split(';'))
    .filter(([, quality]) => quality === undefined || !/^q=0(?:\.0*)?$/.test(quality.trim()))
    .map(([coding]) => coding?.trim().toLowerCase());
  return encodings.find(
    (encoding) => accepted.includes(encoding.name) && compressed.has(`${name}${encoding.suffix}`),
  );
}
