import { describe, expect, it } from 'vitest';
import { checkClip } from '../../../main/areas/clips/clip-fit.js';
import { formatSeconds } from '../../../shared/clip-fit.js';

describe('clip platform check (spec §2.3)', () => {
  it('passes a clip that fits every target', () => {
    expect(
      checkClip({
        duration: 42,
        aspectRatio: 'Portrait 9:16',
        targetPlatforms: ['Videosite Shorts', 'Photogram Reels'],
      }),
    ).toEqual({
      fits: true,
      checked: ['Videosite Shorts', 'Photogram Reels'],
      ratios: ['9:16'],
      problems: [],
    });
  });

  it('names the platform, the duration and the limit', () => {
    const fit = checkClip({
      duration: 71,
      aspectRatio: 'Portrait 9:16',
      targetPlatforms: ['Videosite Shorts', 'Socialnet Reels', 'Microblog'],
    });
    expect(fit.fits).toBe(false);
    expect(fit.problems.map((p) => p.message)).toEqual([
      'Videosite Shorts: 71 s is longer than its 60 s maximum',
      'Microblog: prefers 16:9 or 1:1, the clip exists in 9:16 only',
    ]);
    expect(
      checkClip({ duration: 141, aspectRatio: 'Square 1:1', targetPlatforms: ['Microblog'] }).problems[0]
        ?.message,
    ).toBe('Microblog: 2:21 is longer than its 2:20 maximum');
  });

  it('counts every version with a URL as an available ratio', () => {
    const fit = checkClip({
      duration: 30,
      aspectRatio: 'Landscape 16:9',
      videoUrlPortrait: 'https://media.example/p.mp4',
      targetPlatforms: ['Shortvideo', 'Microblog'],
    });
    expect(fit).toMatchObject({ fits: true, ratios: ['16:9', '9:16'] });
  });

  it('reports unknown platforms and ratios and a missing duration', () => {
    const fit = checkClip({ aspectRatio: 'Cinema 2.39:1', targetPlatforms: ['Fax Reels'] });
    expect(fit.problems.map((p) => p.kind)).toEqual(['unknown-ratio', 'no-duration', 'unknown-platform']);
    expect(checkClip({ duration: 900 })).toMatchObject({ fits: true, checked: [] });
    expect([formatSeconds(600), formatSeconds(90), formatSeconds(140)]).toEqual(['10 min', '90 s', '2:20']);
  });
});
