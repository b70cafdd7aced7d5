/** What GET /health reports that the composition root knows (the other areas' part comes from their modules). */
export interface HealthSources {
  version: string;
  startedAt: Date;
  /** Why the disk makes the bridge degraded (a full database, a log dropping lines); empty when it does not. */
  storageReasons: () => string[];
}
