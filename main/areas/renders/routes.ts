import {
  cancelRender,
  getRender,
  getRenderingSetup,
  listRenders,
  startRender,
} from '../../../shared/api/renders.js';
import { reply, type Mount } from '../area.js';
import type { Renders } from './renders.js';

/** The renders' routes (DESIGN §6.10): thin over the service. */
export function rendersRoutes(mount: Mount, renders: Renders): void {
  mount(startRender, async ({ params, body }) =>
    reply(202, { success: true as const, render: await renders.ask(params.analysisId, params.n, body) }),
  );
  mount(listRenders, ({ query }) => ({ success: true, ...renders.list(query) }));
  mount(getRender, ({ params }) => ({ success: true, render: renders.get(params.renderId) }));
  mount(cancelRender, ({ params }) => ({ success: true, render: renders.cancel(params.renderId) }));
  mount(getRenderingSetup, async () => ({ success: true, ...(await renders.setup()) }));
}
