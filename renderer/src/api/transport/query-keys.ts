/**
 * The root query key of every area, in one place so the live-event invalidation table
 * (event-invalidation.ts) and the areas' own keys stay in step: an area's keys start with its
 * root, and invalidating a root refreshes everything under it.
 */
export const queryKeys = {
  health: ['health'] as const,
  jobs: ['jobs'] as const,
  activity: ['activity'] as const,
  settings: ['settings'] as const,
  webhookBindings: ['settings', 'webhook-bindings'] as const,
  recorderFilename: ['recorder', 'filename'] as const,
  recorderStatus: ['recorder', 'status'] as const,
  recorderTakes: ['recorder', 'takes'] as const,
  posts: ['posts'] as const,
  /** The broadcast list and, under it, each open broadcast's host status. */
  broadcasts: ['broadcasts'] as const,
  publishing: ['publishing'] as const,
  /** Guest list, pipeline, timelines, workflow runs, the sandbox engine's inbox. */
  guests: ['guests'] as const,
  guestTemplates: ['guest-templates'] as const,
  analytics: ['analytics'] as const,
  analyticsRuns: ['analytics', 'runs'] as const,
  /** Clip renders, and what Settings shows of them (FFmpeg, disk use). */
  renders: ['renders'] as const,
  /** The header's search, by its text. */
  search: ['search'] as const,
  /** The production list and each production's thread (issue #42). */
  productions: ['productions'] as const,
};
