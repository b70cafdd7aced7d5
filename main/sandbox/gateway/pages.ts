import type { Express } from 'express';
import type { BroadcastBook } from './broadcasts.js';

/** Tiny public embed and dashboard pages, so the links the gateway hands out open something. */
export function mountBroadcastPages(app: Express, broadcasts: BroadcastBook): void {
  app.get(['/streamhost/embed/:id', '/streamhost/dashboard/:id'], (req, res) => {
    let html: string;
    try {
      const b = broadcasts.view(String(req.params.id));
      html =
        `<h1>${escape(b.name)}</h1><p>Sandbox broadcast <code>${b.id}</code> on channel ${escape(b.channelId)}</p>` +
        `<p>Status: <b>${b.status}</b> · viewers: ${b.viewerCount} · health: ${b.streamHealth}</p>` +
        `<p>Scheduled ${b.scheduledAt}${b.startedAt ? ` · started ${b.startedAt}` : ''}</p>`;
    } catch {
      res.status(404).type('html').send('<h1>Broadcast not found</h1>');
      return;
    }
    res
      .type('html')
      .send(
        `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="5"><title>Sandbox broadcast</title>${html}`,
      );
  });
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
