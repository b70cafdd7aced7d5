/** The provider's platform keys (spec §2.8) and what each platform accepts (spec §2.4). */
export const providerPlatforms = [
  'microblog',
  'socialnet',
  'photogram',
  'professional',
  'videosite',
  'shortvideo',
  'pinboard',
] as const;
export type ProviderPlatform = (typeof providerPlatforms)[number];

export function isProviderPlatform(value: unknown): value is ProviderPlatform {
  return typeof value === 'string' && (providerPlatforms as readonly string[]).includes(value);
}

interface PlatformRules {
  maxChars: number;
  /** What media a post must carry, if any ('media': an image or a video). */
  requires?: 'video' | 'image' | 'media';
  postUrl: (platformPostId: string) => string;
}

export const platformRules: Record<ProviderPlatform, PlatformRules> = {
  microblog: { maxChars: 280, postUrl: (id) => `https://microblog.example/studiohour/status/${id}` },
  socialnet: { maxChars: 63_206, postUrl: (id) => `https://socialnet.example/studiohour/posts/${id}` },
  photogram: { maxChars: 2_200, requires: 'media', postUrl: (id) => `https://photogram.example/p/${id}` },
  professional: { maxChars: 3_000, postUrl: (id) => `https://professional.example/feed/update/${id}` },
  videosite: { maxChars: 5_000, requires: 'video', postUrl: (id) => `https://videosite.example/post/${id}` },
  shortvideo: {
    maxChars: 4_000,
    requires: 'video',
    postUrl: (id) => `https://shortvideo.example/@studiohour/video/${id}`,
  },
  pinboard: { maxChars: 500, requires: 'image', postUrl: (id) => `https://pinboard.example/pin/${id}` },
};

const VIDEO = /\.(mp4|mov|m4v|webm)(\?|$)/i;
const IMAGE = /\.(jpe?g|png|gif|webp)(\?|$)/i;

export function mediaKind(url: string): 'video' | 'image' | 'other' {
  return VIDEO.test(url) ? 'video' : IMAGE.test(url) ? 'image' : 'other';
}

/**
 * Characters as the platform counts them. Microblog counts a URL as 23 and wide characters
 * as 2; the sandbox approximates that (the bridge uses twitter-text for the real rule).
 */
export function countChars(platform: ProviderPlatform, text: string): number {
  if (platform !== 'microblog') return [...text].length;
  let count = 0;
  for (const token of text.split(/(https?:\/\/\S+)/)) {
    if (/^https?:\/\//.test(token)) count += 23;
    else for (const ch of token) count += (ch.codePointAt(0) ?? 0) > 0x10ff ? 2 : 1;
  }
  return count;
}
