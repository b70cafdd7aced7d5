import { describe, expect, it } from 'vitest';
import type { SettingEntry } from '../../../shared/api/settings.js';
import { connectSteps, stepHref } from '../../../renderer/src/overview/first-steps.js';

const entry = (key: string, source: SettingEntry['source']): SettingEntry =>
  ({
    key,
    value: null,
    secret: false,
    source,
    description: '',
    editable: true,
    note: null,
  }) as unknown as SettingEntry;

describe('the Overview first step (issue #30.8)', () => {
  it('lists CRM, provider and OBS as still to connect while they are defaults (the sandbox)', () => {
    const steps = connectSteps([entry('CRM_URL', 'default'), entry('POSTSVC_URL', 'default')], false);
    expect(steps?.map((s) => [s.key, s.done])).toEqual([
      ['CRM_URL', false],
      ['POSTSVC_URL', false],
      ['RECORDER_OBS_URL', false],
    ]);
  });

  it('marks what the operator set (file or environment) as connected', () => {
    const steps = connectSteps([entry('CRM_URL', 'file'), entry('POSTSVC_URL', 'env')], false);
    expect(steps?.filter((s) => s.done).map((s) => s.key)).toEqual(['CRM_URL', 'POSTSVC_URL']);
  });

  it('goes away once all three are connected', () => {
    expect(
      connectSteps(
        [entry('CRM_URL', 'file'), entry('POSTSVC_URL', 'file'), entry('RECORDER_OBS_URL', 'env')],
        false,
      ),
    ).toBeNull();
  });

  it('marks OBS connected when the recorder is, even on the sandbox default (issue #41.1)', () => {
    const steps = connectSteps([entry('CRM_URL', 'default'), entry('RECORDER_OBS_URL', 'default')], true);
    expect(steps?.map((s) => [s.key, s.done])).toEqual([
      ['CRM_URL', false],
      ['POSTSVC_URL', false],
      ['RECORDER_OBS_URL', true],
    ]);
  });

  it("links each step to its peer's section of Settings", () => {
    const steps = connectSteps([], false) ?? [];
    expect(steps.map(stepHref)).toEqual([
      '#/settings?section=crm',
      '#/settings?section=postsvc',
      '#/settings?section=obs',
    ]);
  });
});
