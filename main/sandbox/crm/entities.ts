/**
 * The CRM's entity definitions (spec §2). Where the spec leaves enum values open, the
 * sandbox picks them here; the choices are the first thing to check against a real CRM.
 */

export type FieldType =
  | 'varchar'
  | 'text'
  | 'url'
  | 'email'
  | 'enum'
  | 'multiEnum'
  | 'datetime'
  | 'date'
  | 'int'
  | 'float'
  | 'bool'
  | 'jsonObject'
  | 'link';

export interface FieldDef {
  type: FieldType;
  options?: readonly string[];
  required?: boolean;
  default?: unknown;
  /** For links: the target entity. The attribute is `xxxId`; `xxxName` is derived on read. */
  entity?: CrmEntityName;
  maxLength?: number;
}

export const crmEntityNames = [
  'ContentProduction',
  'GuestBooking',
  'Clip',
  'SocialPost',
  'PlatformPublish',
  'StreamhostBroadcast',
  'CVideo',
  'CEpisode',
] as const;
export type CrmEntityName = (typeof crmEntityNames)[number];

export function isCrmEntityName(name: string): name is CrmEntityName {
  return (crmEntityNames as readonly string[]).includes(name);
}

export const contentTypes = ['Episode', 'Livestream', 'Video', 'Article', 'Clip Package'] as const;
export const contentStages = [
  'Planning',
  'Scheduled',
  'Recording',
  'Editing',
  'Review',
  'Publishing',
  'Published',
  'Archived',
] as const;
export const guestStages = [
  'Outreach',
  'Responded',
  'Confirmed',
  'Scheduled',
  'Recorded',
  'Published',
] as const;
export const clipStatuses = ['Draft', 'Editing', 'Ready', 'Published'] as const;
/** Spec §2.3 only shows `Portrait 9:16`; the other two follow the same "Name W:H" pattern. */
export const aspectRatios = ['Landscape 16:9', 'Portrait 9:16', 'Square 1:1'] as const;
export const clipTargetPlatforms = [
  'Videosite Shorts',
  'Photogram Reels',
  'Shortvideo',
  'Microblog',
  'Socialnet Reels',
] as const;
export const socialPostTypes = [
  'Promo',
  'Reminder',
  'Clip',
  'Episode Link',
  'Quote',
  'Behind Scenes',
  'Engagement',
] as const;
export const socialPlatforms = [
  'Microblog',
  'Socialnet',
  'Photogram',
  'Professional',
  'Videosite',
  'Shortvideo',
] as const;
export const socialPostStatuses = ['Draft', 'Scheduled', 'Published', 'Failed'] as const;
/**
 * Publishing platform labels. The spec names three (those with gateway routes, DESIGN §6.4);
 * Podcast and Blog exist so a record can name a platform that has no route.
 */
export const publishPlatforms = ['Videosite', 'Altvideo', 'Streamhost', 'Podcast', 'Blog'] as const;
/** Spec: `Livestream` or another value (treated as upload). */
export const publishTypes = ['Upload', 'Livestream', 'Premiere'] as const;
/** Spec shows Queued, Published, Failed; Draft (the default) lets a record exist without publishing. */
export const publishStatuses = ['Draft', 'Queued', 'Published', 'Failed'] as const;
/** As the live-broadcast host reports them (DESIGN §5.3), so a sync can copy them verbatim. */
export const broadcastStatuses = ['created', 'ready', 'testing', 'live', 'complete', 'revoked'] as const;

/** The four amp status fields (spec §2.1 leaves their values open). */
export const ampRecordingStatuses = ['Not Started', 'Scheduled', 'Recording', 'Completed', 'Failed'] as const;
export const ampTranscriptStatuses = ['Not Started', 'Processing', 'Completed', 'Failed'] as const;
export const ampEditStatuses = ['Not Started', 'In Progress', 'Review', 'Completed'] as const;
/** `Clips Available` is what the clip hook sets ("the episode is marked as having clips available"). */
export const ampClipsStatuses = ['None', 'Suggested', 'Cutting', 'Clips Available', 'Published'] as const;

/** CVideo's own progress fields, mirrored onto its CEpisode by the hooks. */
export const videoRecordingStatuses = ['Pending', 'Recording', 'Completed', 'Failed'] as const;
export const videoEditStatuses = ['Not Started', 'In Progress', 'Completed'] as const;

const ampFields: Record<string, FieldDef> = {
  ampRecordingStatus: { type: 'enum', options: ampRecordingStatuses, default: 'Not Started' },
  ampTranscriptStatus: { type: 'enum', options: ampTranscriptStatuses, default: 'Not Started' },
  ampEditStatus: { type: 'enum', options: ampEditStatuses, default: 'Not Started' },
  ampClipsStatus: { type: 'enum', options: ampClipsStatuses, default: 'None' },
  ampClipsCut: { type: 'int', default: 0 },
  transcript: { type: 'text' },
  aiAnalysis: { type: 'jsonObject' },
};

export const entityFields: Record<CrmEntityName, Record<string, FieldDef>> = {
  ContentProduction: {
    name: { type: 'varchar', required: true },
    contentType: { type: 'enum', options: contentTypes, default: 'Episode' },
    stage: { type: 'enum', options: contentStages, default: 'Planning' },
    showName: { type: 'varchar' },
    description: { type: 'text' },
    scheduledDate: { type: 'datetime' },
    recordingUrl: { type: 'url' },
    thumbnailUrl: { type: 'url' },
    platforms: { type: 'multiEnum', options: publishPlatforms, default: [] },
    ...ampFields,
    guestBookingId: { type: 'link', entity: 'GuestBooking' },
  },
  GuestBooking: {
    name: { type: 'varchar', required: true },
    email: { type: 'email' },
    stage: { type: 'enum', options: guestStages, default: 'Outreach' },
    scheduledDate: { type: 'datetime' },
    topics: { type: 'text' },
    socialHandles: { type: 'text' },
    bio: { type: 'text' },
    notes: { type: 'text' },
    timezone: { type: 'varchar', maxLength: 64 },
    contentProductionId: { type: 'link', entity: 'ContentProduction' },
  },
  Clip: {
    name: { type: 'varchar', required: true },
    status: { type: 'enum', options: clipStatuses, default: 'Draft' },
    hookQuote: { type: 'text' },
    duration: { type: 'int' },
    aspectRatio: { type: 'enum', options: aspectRatios, default: 'Portrait 9:16' },
    videoUrlLandscape: { type: 'url' },
    videoUrlPortrait: { type: 'url' },
    videoUrlSquare: { type: 'url' },
    targetPlatforms: { type: 'multiEnum', options: clipTargetPlatforms, default: [] },
    thumbnailUrl: { type: 'url' },
    contentProductionId: { type: 'link', entity: 'ContentProduction' },
  },
  SocialPost: {
    name: { type: 'varchar' },
    content: { type: 'text' },
    postType: { type: 'enum', options: socialPostTypes, default: 'Promo' },
    platform: { type: 'enum', options: socialPlatforms, default: 'Microblog' },
    status: { type: 'enum', options: socialPostStatuses, default: 'Draft' },
    scheduledAt: { type: 'datetime' },
    postsvcId: { type: 'varchar' },
    mediaUrl: { type: 'url' },
    contentProductionId: { type: 'link', entity: 'ContentProduction' },
    clipId: { type: 'link', entity: 'Clip' },
    error: { type: 'text' },
  },
  PlatformPublish: {
    name: { type: 'varchar' },
    platform: { type: 'enum', options: publishPlatforms, default: 'Videosite' },
    publishType: { type: 'enum', options: publishTypes, default: 'Upload' },
    title: { type: 'varchar' },
    description: { type: 'text' },
    thumbnailUrl: { type: 'url' },
    scheduledAt: { type: 'datetime' },
    status: { type: 'enum', options: publishStatuses, default: 'Draft' },
    platformUrl: { type: 'url' },
    platformId: { type: 'varchar' },
    // rtmp(s):// addresses: varchar, not url.
    streamUrl: { type: 'varchar' },
    streamKey: { type: 'varchar' },
    apiResponse: { type: 'text' },
    publishedAt: { type: 'datetime' },
    contentProductionId: { type: 'link', entity: 'ContentProduction' },
  },
  StreamhostBroadcast: {
    name: { type: 'varchar', required: true },
    streamhostId: { type: 'varchar' },
    status: { type: 'enum', options: broadcastStatuses, default: 'created' },
    viewerCount: { type: 'int', default: 0 },
    scheduledAt: { type: 'datetime' },
    startedAt: { type: 'datetime' },
    channelId: { type: 'varchar' },
    embedUrl: { type: 'url' },
    dashboardUrl: { type: 'url' },
    contentProductionId: { type: 'link', entity: 'ContentProduction' },
  },
  CEpisode: {
    name: { type: 'varchar', required: true },
    showName: { type: 'varchar' },
    episodeNumber: { type: 'int' },
    ...ampFields,
    contentProductionId: { type: 'link', entity: 'ContentProduction' },
  },
  CVideo: {
    name: { type: 'varchar', required: true },
    recordingStatus: { type: 'enum', options: videoRecordingStatuses, default: 'Pending' },
    editStatus: { type: 'enum', options: videoEditStatuses, default: 'Not Started' },
    transcript: { type: 'text' },
    aiAnalysis: { type: 'jsonObject' },
    clipsCreated: { type: 'int', default: 0 },
    videoUrl: { type: 'url' },
    durationSeconds: { type: 'int' },
    episodeId: { type: 'link', entity: 'CEpisode' },
  },
};

/** Attributes every record has; the CRM sets them, writes to them are ignored. */
export const systemAttributes = [
  'id',
  'deleted',
  'createdAt',
  'modifiedAt',
  'createdById',
  'createdByName',
  'modifiedById',
  'modifiedByName',
] as const;

/** `contentProductionId` → `contentProductionName`. */
export function linkNameAttribute(linkAttribute: string): string {
  return `${linkAttribute.slice(0, -2)}Name`;
}

/** Every attribute a record of this entity shows, in order. */
export function attributeNames(entity: CrmEntityName): string[] {
  const names: string[] = ['id', 'name'];
  for (const [attribute, def] of Object.entries(entityFields[entity])) {
    if (attribute === 'name') continue;
    names.push(attribute);
    if (def.type === 'link') names.push(linkNameAttribute(attribute));
  }
  names.push(...systemAttributes.filter((a) => a !== 'id'));
  return names;
}
