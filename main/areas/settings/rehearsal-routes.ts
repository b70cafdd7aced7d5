import { getRehearsal, setRehearsal } from '../../../shared/api/rehearsal.js';
import { AppError } from '../../kernel/app-error.js';
import type { AreaContext, Mount } from '../area.js';

/** The sandbox panel's routes (DESIGN §8): only in sandbox mode; with real peers, 404. */
export function rehearsalRoutes(mount: Mount, ctx: AreaContext): void {
  const rehearsal = () => {
    if (!ctx.demo) throw AppError.notFound('rehearsals exist only in sandbox mode (no CRM configured)');
    return ctx.demo.rehearsal;
  };
  mount(getRehearsal, () => ({ success: true, peers: rehearsal().state() }));
  mount(setRehearsal, async ({ body }) => {
    const peers = await rehearsal().apply(body.peer, body.fault, body.platform ?? null);
    const what =
      body.fault === 'none'
        ? `sandbox: ${body.peer} put back`
        : body.fault === 'refuse-platform'
          ? `sandbox: the posting provider refuses ${body.platform}`
          : `sandbox: ${body.peer} made to ${body.fault === 'offline' ? 'go offline' : body.fault}`;
    ctx.activity.record('settings.updated', 'info', what, { keys: [] });
    return { success: true, peers };
  });
}
