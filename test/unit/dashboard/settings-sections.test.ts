import { describe, expect, it } from 'vitest';
import { configKeys } from '../../../shared/api/settings.js';
import { bridgeFields, peerSections, renderingFields } from '../../../renderer/src/settings/sections.js';

describe('Settings by peer (issue #41.1)', () => {
  it('shows every config name of DESIGN §3 once, each with a label in words', () => {
    const fields = [
      ...peerSections.flatMap((section) => section.fields),
      ...bridgeFields,
      ...renderingFields,
    ];
    expect(fields.map((field) => field.key).sort()).toEqual([...configKeys].sort());
    for (const field of fields) expect(field.label, field.key).not.toMatch(/^[A-Z0-9_]+$/);
  });

  it("opens each peer's section with its address", () => {
    expect(peerSections.map((section) => [section.id, section.fields[0]?.key])).toEqual([
      ['crm', 'CRM_URL'],
      ['postsvc', 'POSTSVC_URL'],
      ['gateway', 'GATEWAY_URL'],
      ['automation', 'AUTOMATION_URL'],
      ['obs', 'RECORDER_OBS_URL'],
    ]);
  });
});
