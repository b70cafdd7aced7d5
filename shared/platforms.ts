/** Platform tables of the spec (§2.3, §2.4, §2.8), shared by the bridge and the dashboard. */

/** Provider platform keys (spec §2.8). */
export const platformKeys = [
  'microblog',
  'socialnet',
  'photogram',
  'professional',
  'videosite',
  'shortvideo',
  'pinboard',
] as const;
export type PlatformKey = (typeof platformKeys)[number];

export interface PostingPlatform {
  key: PlatformKey;
  label: string;
  /** Character limit of a post (spec §2.4). */
  charLimit: number;
  media: string;
  /** Microblog counts like its platform: URLs 23, wide characters 2 (twitter-text). */
  weightedCount: boolean;
  /** What media a post must carry (DESIGN §6.8): judged from the URL's extension, never fetched. */
  requiresMedia: 'video' | 'image' | 'image-or-video' | null;
}

export const postingPlatforms: Record<PlatformKey, PostingPlatform> = {
  microblog: {
    key: 'microblog',
    label: 'Microblog',
    charLimit: 280,
    media: 'images, videos, GIFs',
    weightedCount: true,
    requiresMedia: null,
  },
  socialnet: {
    key: 'socialnet',
    label: 'Socialnet',
    charLimit: 63_206,
    media: 'images, videos, links',
    weightedCount: false,
    requiresMedia: null,
  },
  photogram: {
    key: 'photogram',
    label: 'Photogram',
    charLimit: 2_200,
    media: 'images, videos, reels',
    weightedCount: false,
    requiresMedia: 'image-or-video',
  },
  professional: {
    key: 'professional',
    label: 'Professional',
    charLimit: 3_000,
    media: 'images, videos, documents',
    weightedCount: false,
    requiresMedia: null,
  },
  videosite: {
    key: 'videosite',
    label: 'Videosite',
    charLimit: 5_000,
    media: 'videos only',
    weightedCount: false,
    requiresMedia: 'video',
  },
  shortvideo: {
    key: 'shortvideo',
    label: 'Shortvideo',
    charLimit: 4_000,
    media: 'videos only',
    weightedCount: false,
    requiresMedia: 'video',
  },
  // The spec's table has no limit for pinboard; 500 is the pin description limit of its real-world model.
  pinboard: {
    key: 'pinboard',
    label: 'Pinboard',
    charLimit: 500,
    media: 'image required',
    weightedCount: false,
    requiresMedia: 'image',
  },
};

/** SocialPost.platform enum (spec §2.4); lower-cased it is the provider key. */
export const socialPostPlatforms = [
  'Microblog',
  'Socialnet',
  'Photogram',
  'Professional',
  'Videosite',
  'Shortvideo',
] as const;

/** Posting quota per provider plan (spec §8). */
export const planDailyQuota = { free: 10, premium: 100, business: 500 } as const;

// The clip platforms (spec §2.3) and the one rule of what fits them: shared/clip-fit.ts.
