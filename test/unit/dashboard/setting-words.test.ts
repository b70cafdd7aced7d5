import { describe, expect, it } from 'vitest';
import { withSettingLabels } from '../../../renderer/src/settings/setting-words.js';

describe('withSettingLabels: Settings names a setting by its label, not its config key', () => {
  const labels = new Map([
    ['COLLECT_INTERVAL_HOURS', 'Collect analytics every (hours)'],
    ['GATEWAY_URL', 'Gateway address'],
    ['GATEWAY_API_KEY', 'API key'],
  ]);

  it('replaces each whole key that has a label', () => {
    expect(withSettingLabels('COLLECT_INTERVAL_HOURS must be at least 1 hour.', labels)).toBe(
      'Collect analytics every (hours) must be at least 1 hour.',
    );
    expect(
      withSettingLabels(
        'GATEWAY_API_KEY saved for https://a.example; to move GATEWAY_URL to https://b.example, set it again',
        labels,
      ),
    ).toBe('API key saved for https://a.example; to move Gateway address to https://b.example, set it again');
  });

  it('leaves keys without a label, parts of longer keys and other capitals as they are', () => {
    expect(withSettingLabels('BRIDGE_PORT must be a number; HTTP 400; GATEWAY_URLS', labels)).toBe(
      'BRIDGE_PORT must be a number; HTTP 400; GATEWAY_URLS',
    );
  });
});
