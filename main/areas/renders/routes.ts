import type { Response } from 'express';
import {
  cancelRender,
  getClipFrame,
  getRender,
  getRenderFile,
  getRenderingSetup,
  listRenders,
  startRender,
} from '../../../shared/api/renders.js';
import { AppError } from '../../kernel/app-error.js';
import { reply, type Mount } from '../area.js';
import type { Renders } from './renders.js';

/**
 * A file from disk with byte ranges (206; 416 past its end, with `Content-Range: bytes *\/size`),
 * `Accept-Ranges`, HEAD and validators: express's sendFile (the `send` package).
 */
function sendMedia(res: Response, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    res.sendFile(
      file,
      { dotfiles: 'allow', cacheControl: false, headers: { 'Cache-Control': 'no-store' } },
      (error?: Error & { status?: number }) => {
        if (!error || res.headersSent) return resolve();
        if (error.status === 416) {
          res.status(416).end();
          return resolve();
        }
        reject(error.status === 404 ? AppError.notFound(`${file}: no longer on disk`) : error);
      },
    );
  });
}

/** The renders' routes (DESIGN §6.10): thin over the service. */
export function rendersRoutes(mount: Mount, renders: Renders): void {
  mount(startRender, async ({ params, body }) =>
    reply(202, { success: true as const, render: await renders.ask(params.analysisId, params.n, body) }),
  );
  mount(listRenders, ({ query }) => ({ success: true, ...renders.list(query) }));
  mount(getRender, ({ params }) => ({ success: true, render: renders.get(params.renderId) }));
  mount(getRenderFile, ({ params, res }) => sendMedia(res, renders.fileOf(params.renderId, params.format)));
  mount(cancelRender, ({ params }) => ({ success: true, render: renders.cancel(params.renderId) }));
  mount(getClipFrame, async ({ params, res }) => {
    const jpeg = await renders.frame(params.analysisId, params.n);
    res.type('image/jpeg').set('Cache-Control', 'no-store').send(jpeg);
  });
  mount(getRenderingSetup, async () => ({ success: true, ...(await renders.setup()) }));
}
