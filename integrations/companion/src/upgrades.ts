import type { CompanionStaticUpgradeScript } from '@companion-module/base';
import type { ModuleConfig, ModuleSecrets } from './config.js';

/**
 * Upgrade scripts, run by Companion on saved configs, actions and feedbacks of older versions
 * of this module, in order. None yet: 0.1.0 is the first version. Append, never reorder.
 */
export const upgradeScripts: CompanionStaticUpgradeScript<ModuleConfig, ModuleSecrets>[] = [];
