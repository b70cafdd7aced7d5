import { describe, expect, it } from 'vitest';
import { clipMediaIssues } from '../../../main/areas/posting/clip-media.js';
import type { ClipMedia } from '../../../main/areas/area.js';

describe("a post carrying a clip made ready (issue #44.2): the clip's media checked", () => {
  const url = 'https://media.example/clip-rn_x-9x16.mp4';
  const media = (over: Partial<ClipMedia> = {}): ClipMedia => ({
    expiresAt: '2026-12-31T09:00:00.000Z',
    durationS: 75,
    ratio: '9:16',
    ...over,
  });
  const check = (
    platforms: Parameters<typeof clipMediaIssues>[0]['platforms'],
    at: string,
    found = media(),
  ) =>
    clipMediaIssues({ platforms, mediaUrls: ['https://elsewhere.example/a.mp4', url] }, new Date(at), (u) =>
      u === url ? found : null,
    );

  it('refuses a post going out when the upload is no longer served, naming the field and the times', () => {
    const late = check(['shortvideo'], '2026-12-31T09:00:00.000Z');
    expect(late.errors).toEqual([
      expect.objectContaining({ field: 'mediaUrls.1', rule: 'media-expired', code: 'INVALID_MEDIA' }),
    ]);
    expect(late.errors[0]!.message).toContain('served until 2026-12-31T09:00:00.000Z');
    expect(check(['shortvideo'], '2026-12-31T08:59:00.000Z').errors).toEqual([]);
  });

  it("refuses a clip longer than the platform's clip limit; says a ratio it does not prefer", () => {
    const result = check(['videosite', 'photogram', 'professional'], '2026-12-02T09:00:00.000Z');
    expect(result.errors).toEqual([expect.objectContaining({ field: 'mediaUrls.1', rule: 'clip-duration' })]);
    expect(result.errors[0]!.message).toMatch(/Videosite Shorts: 75 s is longer than its 60 s maximum/);
    const square = check(['shortvideo'], '2026-12-02T09:00:00.000Z', media({ ratio: '1:1', durationS: 30 }));
    expect(square.errors).toEqual([]);
    expect(square.warnings).toEqual([expect.stringMatching(/^mediaUrls\.1: Shortvideo: prefers 9:16/)]);
  });
});
