import type { CrmClient, CrmRecord, CrmWhere } from '../../peers/crm.js';
import { PeerError } from '../../peers/peer-error.js';

/**
 * The one adapter of the CRM's SocialPost record (issue #36.1): the record read in one place and
 * typed once, and every write-back made with one policy. The CRM stays the truth: the bridge reads
 * the record before it acts, and writes back only what it did (postsvcId, status, error) or what
 * the operator asked from the dashboard (a time, a text).
 */

export interface SocialPostRecord {
  id: string;
  name: string | null;
  /** Scheduled, Draft, Published, Failed (or whatever the CRM holds: anything else asks nothing). */
  status: string;
  content: string;
  /** As the CRM spells it (`Microblog`); the provider's key is its lower case. */
  platform: string;
  mediaUrl: string | null;
  /** ISO 8601 (the CRM client converts the CRM's datetimes), null when not set. */
  scheduledAt: string | null;
  postsvcId: string | null;
  error: string | null;
  /** The production it is about, and its name as the CRM gives links (issue #42); null: none. */
  contentProductionId?: string | null;
  contentProductionName?: string | null;
  /** The CRM Clip the post was made from (issue #44.2); null: none. */
  clipId?: string | null;
}

/** What the bridge writes onto a record: only these fields, only what changed. */
export interface SocialPostChanges {
  status?: 'Scheduled' | 'Draft' | 'Published' | 'Failed';
  postsvcId?: string | null;
  error?: string | null;
  scheduledAt?: string;
  content?: string;
  mediaUrl?: string | null;
}

const ENTITY = 'SocialPost';
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const orNull = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

export function socialPostRecordOf(record: CrmRecord): SocialPostRecord {
  return {
    id: record.id,
    name: orNull(record.name),
    status: text(record.status),
    content: text(record.content),
    platform: text(record.platform),
    mediaUrl: orNull(record.mediaUrl),
    scheduledAt: orNull(record.scheduledAt),
    postsvcId: orNull(record.postsvcId),
    error: orNull(record.error),
    contentProductionId: orNull(record.contentProductionId),
    contentProductionName: orNull(record.contentProductionName),
    clipId: orNull(record.clipId),
  };
}

export class SocialPostRecords {
  constructor(private readonly crm: CrmClient) {}

  /** The record as it is now; null when the CRM says it is gone (404). */
  async read(id: string): Promise<SocialPostRecord | null> {
    const record = await this.crm.find(ENTITY, id);
    return record ? socialPostRecordOf(record) : null;
  }

  /** Every record matching `where` (paged by the client). */
  async list(where: CrmWhere[], select?: (keyof SocialPostRecord)[]): Promise<SocialPostRecord[]> {
    const records = await this.crm.listAll(ENTITY, { where, ...(select ? { select } : {}) });
    return records.map(socialPostRecordOf);
  }

  /**
   * The one write-back policy: a record gone meanwhile (404) is 'gone' and nothing is written (its
   * deletion cancels from the ledger); any other failure is thrown as the CRM gave it: a transient
   * one (unreachable, 5xx, 429) is retried by the job queue, a refusal (another 4xx) ends the job
   * with the CRM's reason; a route answers it as the peer's failure.
   */
  async write(id: string, changes: SocialPostChanges): Promise<'written' | 'gone'> {
    try {
      await this.crm.update(ENTITY, id, { ...changes });
      return 'written';
    } catch (error) {
      if (error instanceof PeerError && error.status === 404) return 'gone';
      throw error;
    }
  }
}
