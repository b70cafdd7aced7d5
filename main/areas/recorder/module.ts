import type { AreaContext, AreaModule } from '../area.js';
import { clearedAtRestart } from './cleared-at-restart.js';
import { RecorderState } from './recorder-state.js';
import { recorderRoutes } from './routes.js';

/** The recording device's next filename (spec §4.5, DESIGN §6.7): memory only. */
export function recorderArea(ctx: AreaContext): AreaModule {
  const state = new RecorderState(ctx.now, clearedAtRestart(ctx.activity, ctx.now()));
  return { name: 'recorder', routes: (mount) => recorderRoutes(mount, state, ctx) };
}
