import { describe, expect, it } from 'vitest';
import { guestStages, workflowOfStage } from '../../../shared/api/guests.js';
import { webhookEvents } from '../../../shared/api/webhooks.js';
import { clipPlatformNames } from '../../../shared/clip-fit.js';
import { platformKeys, postingPlatforms, socialPostPlatforms } from '../../../shared/platforms.js';
import { defaultWorkflows } from '../../../main/sandbox/automation/index.js';
import {
  clipTargetPlatforms,
  guestStages as crmGuestStages,
  socialPlatforms,
} from '../../../main/sandbox/crm/entities.js';
import { crmWebhookEvents } from '../../../main/sandbox/crm/webhooks.js';
import { platformRules, providerPlatforms } from '../../../main/sandbox/postsvc/platforms.js';

/**
 * The sandbox imports nothing from shared/ (it stands in for peers the bridge does not own), so it
 * keeps its own copies of the spec's lists. They must not drift from the bridge's.
 */
describe("the sandbox's copies of the spec's lists match shared/", () => {
  it('the same lists, in the same order', () => {
    expect({
      webhookEvents: [...crmWebhookEvents],
      guestStages: [...crmGuestStages],
      platformKeys: [...providerPlatforms],
      socialPostPlatforms: [...socialPlatforms],
      clipPlatforms: [...clipTargetPlatforms],
      workflows: [...defaultWorkflows],
      charLimits: providerPlatforms.map((key) => platformRules[key].maxChars),
    }).toEqual({
      webhookEvents: [...webhookEvents],
      guestStages: [...guestStages],
      platformKeys: [...platformKeys],
      socialPostPlatforms: [...socialPostPlatforms],
      clipPlatforms: [...clipPlatformNames],
      workflows: Object.values(workflowOfStage),
      charLimits: platformKeys.map((key) => postingPlatforms[key].charLimit),
    });
  });
});
