import type { SecretStore } from './config/config.js';
import type { FeatureFactory } from './core.js';
import { analyticsFeature } from './areas/analytics/module.js';
import { broadcastsFeature } from './areas/broadcasts/module.js';
import { contentFeature } from './areas/content/module.js';
import { guestsFeature } from './areas/guests/module.js';
import { clipsFeature } from './areas/clips/module.js';
import { operationalFeature } from './areas/health/module.js';
import { postingFeature } from './areas/posting/module.js';
import { publishingFeature } from './areas/publishing/module.js';
import { recorderFeature } from './areas/recorder/module.js';
import { settingsFeature } from './areas/settings/module.js';
import { webhooksFeature } from './areas/webhooks/module.js';

/** Every area of the bridge, in mount order. A new area adds its factory here. */
export function allFeatures(secretStore?: SecretStore): FeatureFactory[] {
  return [
    operationalFeature,
    webhooksFeature,
    recorderFeature,
    settingsFeature(secretStore),
    broadcastsFeature,
    publishingFeature,
    analyticsFeature,
    guestsFeature,
    contentFeature,
    postingFeature,
    clipsFeature,
  ];
}
