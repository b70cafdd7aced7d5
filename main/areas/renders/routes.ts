import {
  cancelRender,
  getClipFrame,
  getRender,
  getRenderFile,
  getRenderingSetup,
  listRenders,
  makeRenderReady,
  startRender,
} from '../../../shared/api/renders.js';
import { fileReply, reply, type Mount } from '../area.js';
import type { Renders } from './renders.js';

/** The renders' routes (DESIGN §6.10): thin over the service. */
export function rendersRoutes(mount: Mount, renders: Renders): void {
  mount(startRender, async ({ params, body }) =>
    reply(202, { success: true as const, render: await renders.ask(params.analysisId, params.n, body) }),
  );
  mount(listRenders, ({ query }) => ({ success: true, ...renders.list(query) }));
  mount(getRender, ({ params }) => ({ success: true, render: renders.get(params.renderId) }));
  mount(getRenderFile, ({ params }) =>
    fileReply({ path: renders.fileOf(params.renderId, params.format) }, { type: 'video/mp4' }),
  );
  mount(cancelRender, ({ params }) => ({ success: true, render: renders.cancel(params.renderId) }));
  mount(getClipFrame, async ({ params }) =>
    fileReply(await renders.frame(params.analysisId, params.n), { type: 'image/jpeg' }),
  );
  mount(makeRenderReady, ({ params }) =>
    reply(202, { success: true as const, render: renders.makeReady(params.renderId) }),
  );
  mount(getRenderingSetup, async () => ({ success: true, ...(await renders.setup()) }));
}
