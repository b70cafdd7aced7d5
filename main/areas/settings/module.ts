import type { SecretStore } from '../../config/config.js';
import type { AreaContext, AreaModule } from '../area.js';
import { settingsRoutes } from './routes.js';

/**
 * The Settings page: what is in force (masked) and writing the config file (DESIGN §3). In sandbox
 * mode it also hands holders of the bridge key the simulated peers' control key.
 */
export function settingsArea(
  ctx: AreaContext,
  secretStore?: SecretStore,
  sandboxControlKey: string | null = null,
): AreaModule {
  return {
    name: 'settings',
    routes: (mount) => settingsRoutes(mount, ctx, secretStore, sandboxControlKey),
  };
}
