/**
 * Clip target platforms (spec §2.3): preferred ratio and max duration in seconds. Read only by
 * shared/clip-fit.ts, the one rule of what a clip fits (a dependency-cruiser rule keeps it so):
 * suggestions, drafts and warnings must never disagree.
 */
export const clipPlatforms = [
  { name: 'Videosite Shorts', preferredRatios: ['9:16'], maxDurationS: 60 },
  { name: 'Photogram Reels', preferredRatios: ['9:16'], maxDurationS: 90 },
  { name: 'Shortvideo', preferredRatios: ['9:16'], maxDurationS: 600 },
  { name: 'Microblog', preferredRatios: ['16:9', '1:1'], maxDurationS: 140 },
  { name: 'Socialnet Reels', preferredRatios: ['9:16'], maxDurationS: 90 },
] as const;
