import { createPrng, hashSeed, type Prng } from './common/prng.js';
import type { SandboxCrm } from './crm/index.js';
import type { CrmEntityName } from './crm/entities.js';
import { toCrmDatetime } from './crm/wire-format.js';
import type { SandboxGateway } from './gateway/index.js';
import type { BroadcastHistory } from './gateway/broadcasts.js';
import { socialMetricsHistory, type SocialMetricsRow } from './postsvc/analytics.js';
import type { SandboxPostsvc } from './postsvc/index.js';
import type { ProviderPlatform } from './postsvc/platforms.js';

/**
 * Demo data for sandbox mode (DESIGN §8): one show, its episodes in every production stage,
 * guests in every pipeline stage, clips, social posts (scheduled, published, failed, draft)
 * with the matching provider history, platform publishing records and broadcasts.
 * Deterministic: the same `now` gives the same records (ids aside, which the peers draw).
 * Seeded through the direct APIs, before any webhook target exists, so nothing is sent.
 */

export const DEMO_SHOW = 'The Studio Hour';
/** The platforms the bridge collects analytics for (spec §4.2). */
export const DEMO_METRIC_PLATFORMS: readonly ProviderPlatform[] = [
  'microblog',
  'socialnet',
  'photogram',
  'professional',
];

export interface DemoPeers {
  crm: SandboxCrm;
  postsvc?: SandboxPostsvc;
  gateway?: SandboxGateway;
}

export interface DemoDataSummary {
  show: string;
  /** Records created per CRM entity. */
  records: Partial<Record<CrmEntityName, number>>;
  providerPosts: number;
  broadcasts: number;
  /** Ids by demo key (`ep1`, `guest:marcus`, `post:ep1-promo`, ...), for tests and tours. */
  ids: Record<string, string>;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const media = (name: string): string => `https://media.studiohour.example/${name}`;

interface EpisodeSpec {
  key: string;
  number: number;
  title: string;
  stage: 'Planning' | 'Scheduled' | 'Recording' | 'Editing' | 'Review' | 'Publishing' | 'Published';
  dayOffset: number;
  guest: GuestSpec;
  topic: string;
}

interface GuestSpec {
  key: string;
  name: string;
  email: string;
  timezone: string;
  topics: string;
  handles: string;
  bio: string;
  stage: 'Outreach' | 'Responded' | 'Confirmed' | 'Scheduled' | 'Recorded' | 'Published';
}

const guest = (
  key: string,
  name: string,
  email: string,
  timezone: string,
  stage: GuestSpec['stage'],
  topics: string,
  bio: string,
): GuestSpec => ({
  key,
  name,
  email,
  timezone,
  stage,
  topics,
  bio,
  handles: `@${key} on microblog, ${key}.studio on photogram`,
});

const episodes: EpisodeSpec[] = [
  {
    key: 'ep1',
    number: 1,
    title: 'Building in Public',
    stage: 'Published',
    dayOffset: -42,
    topic: 'sharing work before it is finished',
    guest: guest(
      'marcus',
      'Marcus Bell',
      'marcus.bell@example.com',
      'America/New_York',
      'Published',
      'indie software, open roadmaps, burnout',
      'Founder of a two-person app studio; writes a weekly build log.',
    ),
  },
  {
    key: 'ep2',
    number: 2,
    title: 'The Sound of Small Rooms',
    stage: 'Published',
    dayOffset: -35,
    topic: 'acoustics on a budget',
    guest: guest(
      'aiko',
      'Aiko Tanaka',
      'aiko.tanaka@example.org',
      'Asia/Tokyo',
      'Published',
      'room acoustics, field recording, foley',
      'Sound designer for documentaries and games.',
    ),
  },
  {
    key: 'ep3',
    number: 3,
    title: 'Why Newsletters Came Back',
    stage: 'Published',
    dayOffset: -28,
    topic: 'owning your audience',
    guest: guest(
      'sofia',
      'Sofia Lindqvist',
      'sofia@lindqvist.example',
      'Europe/Stockholm',
      'Published',
      'newsletters, paid subscriptions, writing habits',
      'Editor of a 40,000-reader newsletter on Nordic design.',
    ),
  },
  {
    key: 'ep4',
    number: 4,
    title: 'Editing Is Writing',
    stage: 'Publishing',
    dayOffset: -21,
    topic: 'story structure in the edit',
    guest: guest(
      'david',
      'David Mensah',
      'david.mensah@example.net',
      'Europe/London',
      'Recorded',
      'documentary editing, pacing, paper edits',
      'Film editor; teaches story structure to first-time directors.',
    ),
  },
  {
    key: 'ep5',
    number: 5,
    title: 'Notes from the Night Shift',
    stage: 'Review',
    dayOffset: -14,
    topic: 'creative work around a day job',
    guest: guest(
      'camila',
      'Camila Reyes',
      'camila.reyes@example.com',
      'America/Mexico_City',
      'Recorded',
      'night radio, shift work, late-night audiences',
      'Hosts an overnight call-in show; nurse by day.',
    ),
  },
  {
    key: 'ep6',
    number: 6,
    title: 'Designing for Slow Media',
    stage: 'Editing',
    dayOffset: -7,
    topic: 'media that respects attention',
    guest: guest(
      'lena',
      'Lena Hoffmann',
      'lena.hoffmann@example.org',
      'Europe/Berlin',
      'Recorded',
      'slow media, calm technology, print',
      'Designer of a quarterly print magazine about attention.',
    ),
  },
  {
    key: 'ep7',
    number: 7,
    title: 'The Analog Comeback',
    stage: 'Recording',
    dayOffset: 0,
    topic: 'tape, vinyl and film in a digital studio',
    guest: guest(
      'jonas',
      'Jonas Weber',
      'jonas.weber@example.net',
      'Europe/Zurich',
      'Scheduled',
      'tape machines, vinyl mastering, film photography',
      'Mastering engineer who still cuts lacquers.',
    ),
  },
  {
    key: 'ep8',
    number: 8,
    title: 'Local Radio, Global Reach',
    stage: 'Scheduled',
    dayOffset: 7,
    topic: 'community stations going worldwide',
    guest: guest(
      'nadia',
      'Nadia Haddad',
      'nadia.haddad@example.com',
      'Asia/Dubai',
      'Scheduled',
      'community radio, diaspora audiences, streaming rights',
      'Runs a volunteer station streaming to 60 countries.',
    ),
  },
  {
    key: 'ep9',
    number: 9,
    title: 'Season Two Kickoff',
    stage: 'Planning',
    dayOffset: 21,
    topic: 'what we learned in season one',
    guest: guest(
      'ravi',
      'Ravi Patel',
      'ravi.patel@example.org',
      'America/Chicago',
      'Confirmed',
      'audience research, show formats, analytics',
      'Audience researcher; studies what makes listeners stay.',
    ),
  },
];

/** Guests not yet tied to an episode: the early pipeline stages. */
const pipelineGuests: GuestSpec[] = [
  guest(
    'emilie',
    'Émilie Dubois',
    'emilie.dubois@example.net',
    'Europe/Paris',
    'Confirmed',
    'bande dessinée, serial storytelling',
    'Comics author; publishes a weekly webcomic in French and English.',
  ),
  guest(
    'hannah',
    'Hannah Okafor',
    'hannah.okafor@example.com',
    'Africa/Lagos',
    'Responded',
    'independent publishing, book design',
    'Publisher of an independent press for West African fiction.',
  ),
  guest(
    'priya',
    'Priya Raman',
    'priya.raman@example.org',
    'Asia/Kolkata',
    'Outreach',
    'open-source hardware, maker spaces',
    'Runs a maker space and an open-hardware synth kit shop.',
  ),
  guest(
    'tomas',
    'Tomás Ferreira',
    'tomas@ferreira.example',
    'Europe/Lisbon',
    'Outreach',
    'community radio, sound walks',
    'Records sound walks through Lisbon neighbourhoods.',
  ),
];

export function seedDemoData(peers: DemoPeers, now: Date = new Date()): DemoDataSummary {
  const seed = demoSeed(peers.crm, now);
  seedEpisodes(seed);
  seedPipelineGuests(seed);
  seedLivestreamAndPilot(seed);
  seedClips(seed);
  let providerPosts = seedSocialPosts(seed, peers.postsvc);
  if (peers.postsvc) providerPosts += seedProviderHistory(seed, peers.postsvc);
  seedPublishing(seed);
  const broadcasts = seedBroadcasts(seed, peers.gateway);
  return { show: DEMO_SHOW, records: seed.counts, providerPosts, broadcasts, ids: seed.ids };
}

/** What every section of the demo data works with: one random sequence, the ids so far, the clock. */
interface DemoSeed {
  crm: SandboxCrm;
  now: Date;
  /** One sequence for the whole seed: the sections draw from it in a fixed order. */
  prng: Prng;
  ids: Record<string, string>;
  counts: Partial<Record<CrmEntityName, number>>;
  /** Creates a CRM record, remembering its id under `key`. */
  create(key: string, entity: CrmEntityName, attrs: Record<string, unknown>): string;
  /** A day relative to today at an hour (UTC); `dayOffset 0` is "now minus half an hour" (recording). */
  day(dayOffset: number, hour?: number): Date;
  /** When the live Q&A goes out: its content record, publishing records and broadcast. */
  liveAt: Date;
}

function demoSeed(crm: SandboxCrm, now: Date): DemoSeed {
  const ids: Record<string, string> = {};
  const counts: Partial<Record<CrmEntityName, number>> = {};
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const day = (dayOffset: number, hour = 15): Date =>
    dayOffset === 0 ? new Date(now.getTime() - HOUR / 2) : new Date(today + dayOffset * DAY + hour * HOUR);
  return {
    crm,
    now,
    prng: createPrng(hashSeed(`demo|${DEMO_SHOW}`)),
    ids,
    counts,
    create: (key, entity, attrs) => {
      const id = crm.create(entity, attrs).id;
      ids[key] = id;
      counts[entity] = (counts[entity] ?? 0) + 1;
      return id;
    },
    day,
    liveAt: day(3, 17),
  };
}

const crmTime = (date: Date): string => toCrmDatetime(date);

/** Episodes, their guests, and the CEpisode/CVideo pairs the recording pipeline keeps in sync. */
function seedEpisodes({ crm, prng, create, day }: DemoSeed): void {
  for (const ep of episodes) {
    const when = day(ep.dayOffset);
    const done = (stages: EpisodeSpec['stage'][]): boolean => stages.includes(ep.stage);
    const recorded = done(['Editing', 'Review', 'Publishing', 'Published']);
    const edited = done(['Review', 'Publishing', 'Published']);
    const contentId = create(ep.key, 'ContentProduction', {
      name: `${DEMO_SHOW} #${ep.number}: ${ep.title}`,
      contentType: 'Episode',
      stage: ep.stage,
      showName: DEMO_SHOW,
      description: `${ep.guest.name} on ${ep.topic}.`,
      scheduledDate: crmTime(when),
      recordingUrl: recorded ? media(`recordings/ep${ep.number}-master.mov`) : null,
      thumbnailUrl: media(`thumbs/ep${ep.number}.jpg`),
      platforms: ['Videosite', 'Altvideo'],
      ampRecordingStatus: recorded
        ? 'Completed'
        : ep.stage === 'Recording'
          ? 'Recording'
          : ep.stage === 'Scheduled'
            ? 'Scheduled'
            : 'Not Started',
      ampTranscriptStatus: recorded ? 'Completed' : 'Not Started',
      ampEditStatus: edited ? 'Completed' : ep.stage === 'Editing' ? 'In Progress' : 'Not Started',
    });
    const guestId = create(`guest:${ep.guest.key}`, 'GuestBooking', {
      name: ep.guest.name,
      email: ep.guest.email,
      stage: ep.guest.stage,
      scheduledDate: crmTime(when),
      topics: ep.guest.topics,
      socialHandles: ep.guest.handles,
      bio: ep.guest.bio,
      notes: ep.stage === 'Scheduled' ? 'Send prep notes 48 h before; prefers an afternoon slot.' : null,
      timezone: ep.guest.timezone,
      contentProductionId: contentId,
    });
    crm.update('ContentProduction', contentId, { guestBookingId: guestId });

    if (ep.stage === 'Scheduled' || ep.stage === 'Planning') continue;
    const episodeId = create(`cepisode:${ep.key}`, 'CEpisode', {
      name: `${DEMO_SHOW} #${ep.number}`,
      showName: DEMO_SHOW,
      episodeNumber: ep.number,
      ampRecordingStatus: ep.stage === 'Recording' ? 'Recording' : 'Scheduled',
      contentProductionId: contentId,
    });
    const videoId = create(`cvideo:${ep.key}`, 'CVideo', {
      name: `Ep ${ep.number} master`,
      recordingStatus: 'Recording',
      videoUrl: media(`recordings/ep${ep.number}-master.mov`),
      durationSeconds: 2700 + prng.int(0, 1500),
      episodeId,
    });
    // Progress updates go through the CVideo, so the hooks mirror them onto the CEpisode.
    if (recorded) {
      crm.update('CVideo', videoId, {
        recordingStatus: 'Completed',
        transcript: transcriptFor(ep),
        aiAnalysis: { topics: ep.guest.topics.split(', '), sentiment: 0.3 + prng.int(0, 50) / 100, hooks: 3 },
      });
    }
    if (edited) crm.update('CVideo', videoId, { editStatus: 'Completed', clipsCreated: prng.int(1, 3) });
    else if (recorded) crm.update('CVideo', videoId, { editStatus: 'In Progress' });
  }
}

/** Guests not yet tied to an episode: the early pipeline stages. */
function seedPipelineGuests({ create }: DemoSeed): void {
  for (const g of pipelineGuests) {
    create(`guest:${g.key}`, 'GuestBooking', {
      name: g.name,
      email: g.email,
      stage: g.stage,
      topics: g.topics,
      socialHandles: g.handles,
      bio: g.bio,
      timezone: g.timezone,
      notes: g.stage === 'Outreach' ? 'First email sent; follow up in a week.' : null,
    });
  }
}

/** A livestream and an archived pilot round out the stages. */
function seedLivestreamAndPilot({ create, day, liveAt }: DemoSeed): void {
  create('live-qa', 'ContentProduction', {
    name: 'Live Q&A: Ask the Studio',
    contentType: 'Livestream',
    stage: 'Scheduled',
    showName: DEMO_SHOW,
    description: 'Listener questions, live, with the whole team.',
    scheduledDate: crmTime(liveAt),
    platforms: ['Videosite', 'Streamhost'],
    ampRecordingStatus: 'Scheduled',
  });
  create('pilot', 'ContentProduction', {
    name: `${DEMO_SHOW} #0: Pilot (unaired)`,
    contentType: 'Episode',
    stage: 'Archived',
    showName: DEMO_SHOW,
    scheduledDate: crmTime(day(-120)),
    ampRecordingStatus: 'Completed',
  });
}

/** Clips: creating one bumps its episode's ampClipsCut and notifies the team (CRM hook). */
function seedClips({ create, ids }: DemoSeed): void {
  const clips: Array<[string, string, string, string, number, string, string[]]> = [
    [
      'clip:ep1-roadmap',
      'ep1',
      'Published',
      'Nobody steals your roadmap. They steal your momentum.',
      42,
      'Portrait 9:16',
      ['Videosite Shorts', 'Photogram Reels'],
    ],
    [
      'clip:ep1-burnout',
      'ep1',
      'Ready',
      'Shipping every week is a promise, and promises get heavy.',
      58,
      'Portrait 9:16',
      ['Shortvideo', 'Socialnet Reels'],
    ],
    [
      'clip:ep2-closet',
      'ep2',
      'Published',
      'The best vocal booth I ever used was a closet full of coats.',
      35,
      'Square 1:1',
      ['Microblog'],
    ],
    [
      'clip:ep3-inbox',
      'ep3',
      'Ready',
      'An inbox is the last place nobody can rank you.',
      48,
      'Portrait 9:16',
      ['Photogram Reels', 'Videosite Shorts'],
    ],
    [
      'clip:ep3-paid',
      'ep3',
      'Editing',
      'A thousand people paying five dollars beats a million scrolling past.',
      71,
      'Landscape 16:9',
      ['Microblog'],
    ],
    [
      'clip:ep4-paper-edit',
      'ep4',
      'Draft',
      'Every cut is a sentence. Most films have too many commas.',
      64,
      'Portrait 9:16',
      ['Shortvideo'],
    ],
  ];
  for (const [key, epKey, status, quote, duration, ratio, targets] of clips) {
    const portrait = ratio === 'Portrait 9:16';
    create(key, 'Clip', {
      name: `${epKey.toUpperCase()}: "${quote.split(' ').slice(0, 5).join(' ')}..."`,
      status,
      hookQuote: quote,
      duration,
      aspectRatio: ratio,
      videoUrlPortrait: portrait && status !== 'Draft' ? media(`clips/${key.slice(5)}-9x16.mp4`) : null,
      videoUrlLandscape: ratio === 'Landscape 16:9' ? media(`clips/${key.slice(5)}-16x9.mp4`) : null,
      videoUrlSquare: ratio === 'Square 1:1' ? media(`clips/${key.slice(5)}-1x1.mp4`) : null,
      targetPlatforms: targets,
      thumbnailUrl: media(`clips/${key.slice(5)}.jpg`),
      contentProductionId: ids[epKey],
    });
  }
}

/** Social posts and the provider's side of them; returns how many the provider got. */
function seedSocialPosts({ create, ids, day, now }: DemoSeed, postsvc: SandboxPostsvc | undefined): number {
  let providerPosts = 0;
  const social = (
    key: string,
    attrs: {
      content: string;
      postType: string;
      platform: string;
      status: string;
      at: Date;
      epKey: string;
      mediaUrl?: string;
      clipKey?: string;
      error?: string;
    },
    provider?: 'scheduled' | 'published',
  ): void => {
    let postsvcId: string | null = null;
    if (provider && postsvc) {
      const platform = attrs.platform.toLowerCase() as ProviderPlatform;
      postsvcId = postsvc.importPost({
        post: attrs.content,
        platforms: [platform],
        mediaUrls: attrs.mediaUrl ? [attrs.mediaUrl] : [],
        created:
          provider === 'published' ? new Date(attrs.at.getTime() - DAY) : new Date(now.getTime() - 2 * HOUR),
        scheduleDate: attrs.at,
      }).id;
      providerPosts++;
    }
    create(key, 'SocialPost', {
      name: `${attrs.postType} · ${attrs.platform}`,
      content: attrs.content,
      postType: attrs.postType,
      platform: attrs.platform,
      status: attrs.status,
      scheduledAt: crmTime(attrs.at),
      postsvcId,
      mediaUrl: attrs.mediaUrl ?? null,
      contentProductionId: ids[attrs.epKey],
      clipId: attrs.clipKey ? ids[attrs.clipKey] : null,
      error: attrs.error ?? null,
    });
  };
  social(
    'post:ep1-promo',
    {
      content: `New episode: "Building in Public" with Marcus Bell. Why open roadmaps beat stealth mode → https://studiohour.example/1`,
      postType: 'Episode Link',
      platform: 'Microblog',
      status: 'Published',
      at: day(-41, 14),
      epKey: 'ep1',
    },
    'published',
  );
  social(
    'post:ep2-clip',
    {
      content: 'The best vocal booth is a closet full of coats. 🎙️ Aiko Tanaka on recording in small rooms.',
      postType: 'Clip',
      platform: 'Photogram',
      status: 'Published',
      at: day(-34, 16),
      epKey: 'ep2',
      mediaUrl: media('clips/ep2-closet-1x1.mp4'),
      clipKey: 'clip:ep2-closet',
    },
    'published',
  );
  social(
    'post:ep3-link',
    {
      content:
        'Newsletters are back, and they never really left. Sofia Lindqvist on owning your audience: https://studiohour.example/3',
      postType: 'Episode Link',
      platform: 'Professional',
      status: 'Published',
      at: day(-27, 9),
      epKey: 'ep3',
    },
    'published',
  );
  social(
    'post:ep3-quote',
    {
      content: '"A thousand people paying five dollars beats a million scrolling past." — Sofia Lindqvist',
      postType: 'Quote',
      platform: 'Socialnet',
      status: 'Published',
      at: day(-26, 18),
      epKey: 'ep3',
    },
    'published',
  );
  social(
    'post:ep4-link',
    {
      content:
        'Editing is writing. David Mensah on paper edits and pacing — out tomorrow: https://studiohour.example/4',
      postType: 'Episode Link',
      platform: 'Professional',
      status: 'Scheduled',
      at: day(1, 9),
      epKey: 'ep4',
    },
    'scheduled',
  );
  social(
    'post:live-reminder',
    {
      content: 'Live Q&A this week! Bring your questions about running a small studio. 🔴',
      postType: 'Reminder',
      platform: 'Socialnet',
      status: 'Scheduled',
      at: day(2, 16),
      epKey: 'live-qa',
    },
    'scheduled',
  );
  social(
    'post:ep8-reminder',
    {
      content: 'Next week: Nadia Haddad on community radio with a global audience. Set a reminder!',
      postType: 'Reminder',
      platform: 'Microblog',
      status: 'Scheduled',
      at: day(6, 15),
      epKey: 'ep8',
    },
    'scheduled',
  );
  social('post:ep5-bts', {
    content: 'Behind the scenes of our overnight session with Camila Reyes.',
    postType: 'Behind Scenes',
    platform: 'Photogram',
    status: 'Failed',
    at: day(-1, 20),
    epKey: 'ep5',
    error: 'photogram requires an image or a video in mediaUrls.',
  });
  social('post:ep6-question', {
    content: 'What is one piece of media that respects your attention? Tell us before the episode drops.',
    postType: 'Engagement',
    platform: 'Socialnet',
    status: 'Draft',
    at: day(10, 12),
    epKey: 'ep6',
  });
  return providerPosts;
}

/** Posts made straight at the provider over the last months: history and top-posts material; returns how many. */
function seedProviderHistory({ day }: DemoSeed, postsvc: SandboxPostsvc): number {
  const extra: Array<[ProviderPlatform, string, number]> = [
    ['microblog', 'Season one, by the numbers: 9 episodes, 13 guests, 1 closet full of coats.', -80],
    ['socialnet', 'We are hiring a part-time producer. Remote, flexible hours, love of radio required.', -63],
    ['photogram', 'Studio tour: the new acoustic panels are up.', -49],
    ['professional', 'What we learned publishing a weekly show for a year (long read).', -12],
  ];
  for (const [platform, post, offset] of extra) {
    postsvc.importPost({
      post,
      platforms: [platform],
      mediaUrls: platform === 'photogram' ? [media('photos/studio-panels.jpg')] : [],
      created: day(offset, 10),
    });
  }
  return extra.length;
}

/** Publishing records: published, failed with the gateway's answer, and a dependent waiting on its primary. */
function seedPublishing({ create, ids, prng, day, liveAt }: DemoSeed): void {
  const publishRecord = (key: string, epKey: string, attrs: Record<string, unknown>): void => {
    create(key, 'PlatformPublish', { contentProductionId: ids[epKey], ...attrs });
  };
  for (const epKey of ['ep1', 'ep2', 'ep3']) {
    const n = epKey.slice(2);
    const at = day(-42 + (Number(n) - 1) * 7 + 3, 12);
    publishRecord(`publish:${epKey}-videosite`, epKey, {
      name: `Ep ${n} · Videosite`,
      platform: 'Videosite',
      publishType: 'Upload',
      title: `${DEMO_SHOW} #${n}`,
      status: 'Published',
      platformId: `vs${prng.chars(9, 'abcdefghijklmnopqrstuvwxyz0123456789')}`,
      platformUrl: `https://videosite.example/watch?v=demo${n}`,
      scheduledAt: crmTime(at),
      publishedAt: crmTime(at),
    });
    publishRecord(`publish:${epKey}-altvideo`, epKey, {
      name: `Ep ${n} · Altvideo`,
      platform: 'Altvideo',
      publishType: 'Upload',
      title: `${DEMO_SHOW} #${n}`,
      status: 'Published',
      platformId: String(prng.int(100_000_000, 999_999_999)),
      platformUrl: `https://altvideo.example/video/demo${n}`,
      scheduledAt: crmTime(at),
      publishedAt: crmTime(at),
    });
  }
  publishRecord('publish:ep4-videosite', 'ep4', {
    name: 'Ep 4 · Videosite',
    platform: 'Videosite',
    publishType: 'Upload',
    title: `${DEMO_SHOW} #4: Editing Is Writing`,
    status: 'Published',
    platformId: 'vsdemo4',
    platformUrl: 'https://videosite.example/watch?v=demo4',
    publishedAt: crmTime(day(-1, 12)),
  });
  publishRecord('publish:ep4-altvideo', 'ep4', {
    name: 'Ep 4 · Altvideo',
    platform: 'Altvideo',
    publishType: 'Upload',
    title: `${DEMO_SHOW} #4: Editing Is Writing`,
    status: 'Failed',
    apiResponse:
      'AUTH_ERROR: altvideo rejected the upload (401): the account token has expired, reconnect it at the gateway',
  });
  publishRecord('publish:live-videosite', 'live-qa', {
    name: 'Live Q&A · Videosite',
    platform: 'Videosite',
    publishType: 'Livestream',
    title: 'Live Q&A: Ask the Studio',
    description: 'Listener questions, live.',
    scheduledAt: crmTime(liveAt),
    status: 'Draft',
  });
  publishRecord('publish:live-streamhost', 'live-qa', {
    name: 'Live Q&A · Streamhost (waits for Videosite)',
    platform: 'Streamhost',
    publishType: 'Livestream',
    title: 'Live Q&A: Ask the Studio',
    scheduledAt: crmTime(liveAt),
    status: 'Queued',
  });
}

/**
 * Broadcasts: one per published episode, long over (each went live at its time and was ended an
 * hour later), one upcoming
 * that goes live only when the operator starts the simulated encoder (DESIGN §8); returns how
 * many the gateway has.
 */
function seedBroadcasts(
  { create, ids, day, now, liveAt }: DemoSeed,
  gateway: SandboxGateway | undefined,
): number {
  let broadcasts = 0;
  const broadcast = (
    key: string,
    name: string,
    scheduledAt: Date,
    history: BroadcastHistory,
    contentKey: string,
  ): void => {
    const remote = gateway?.createBroadcast(
      {
        name,
        scheduledAt: scheduledAt.toISOString(),
        channelId: 'main',
        settings: { isPublic: true, chatEnabled: true, dvr: true },
      },
      history,
    );
    if (remote) broadcasts++;
    create(key, 'StreamhostBroadcast', {
      name,
      streamhostId: remote?.id ?? null,
      status: remote?.status ?? 'created',
      viewerCount: remote?.viewerCount ?? 0,
      scheduledAt: crmTime(scheduledAt),
      startedAt: remote?.startedAt ? crmTime(new Date(remote.startedAt)) : null,
      channelId: 'main',
      embedUrl: remote?.embedUrl ?? null,
      dashboardUrl: remote?.dashboardUrl ?? null,
      contentProductionId: ids[contentKey],
    });
  };
  // Each published episode went out live at 18:00 on its recording day, for an hour.
  for (const ep of episodes.filter((spec) => spec.stage === 'Published')) {
    const liveAt = day(ep.dayOffset, 18);
    broadcast(
      `broadcast:${ep.key}-live`,
      `${DEMO_SHOW} Live #${ep.number}`,
      liveAt,
      { createdAt: day(ep.dayOffset - 1, 10), liveAt, endedAt: new Date(liveAt.getTime() + 3_600_000) },
      ep.key,
    );
  }
  broadcast('broadcast:live-qa', 'Live Q&A: Ask the Studio', liveAt, { createdAt: now }, 'live-qa');
  return broadcasts;
}

/** 90 days of daily social metrics from the provider's own model, for the bridge's store. */
export function demoMetricsHistory(now: Date = new Date(), days = 90): SocialMetricsRow[] {
  return socialMetricsHistory(DEMO_METRIC_PLATFORMS, now, days);
}

function transcriptFor(ep: EpisodeSpec): string {
  return [
    `[00:00:05] Welcome to ${DEMO_SHOW}. Today: ${ep.title.toLowerCase()}, with ${ep.guest.name}.`,
    `[00:00:19] ${ep.guest.name.split(' ')[0]}, you have spent years on ${ep.guest.topics.split(', ')[0]}. What surprised you most?`,
    `[00:00:31] Honestly? That the hard part was never the tools. It was ${ep.topic}.`,
    `[00:01:02] Here is the thing nobody tells you: the first version is for you, the second one is for them.`,
    `[00:01:40] So what would you tell someone starting this week?`,
    `[00:01:47] Start smaller than you think, and publish before you feel ready.`,
  ].join('\n');
}
