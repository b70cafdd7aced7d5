import type { SecretStore } from '../../config/config.js';
import type { AreaContext, AreaModule } from '../area.js';
import { settingsRoutes } from './routes.js';

/** The Settings page: what is in force (masked) and writing the config file (DESIGN §3). */
export function settingsArea(ctx: AreaContext, secretStore?: SecretStore): AreaModule {
  return { name: 'settings', routes: (mount) => settingsRoutes(mount, ctx, secretStore) };
}
