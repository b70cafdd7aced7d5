import { formatClipTime, type ContentSummary } from '../../../shared/api/clips.js';
import type { ClipPlatformName } from '../../../shared/clip-fit.js';
import type { CrmClient, CrmRecord } from '../../peers/crm.js';
import { AppError } from '../../kernel/app-error.js';
import { CLIP_FIT_FIELDS } from './clip-fit.js';

export interface DraftClipInput {
  contentProductionId: string;
  hookQuote: string;
  startTime: number;
  endTime: number;
  name?: string | undefined;
  targetPlatforms?: ClipPlatformName[] | undefined;
}

export interface DraftClipResult {
  id: string;
  name: string;
  duration: number;
  /** false: the same draft already existed (a double click, or a retry after a timeout). */
  created: boolean;
  contentName: string;
  /** The clip as the CRM holds it (its aspect ratio known now), for the fit check. */
  record: CrmRecord;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** Clip.duration is whole seconds (spec §2.3). */
function clipDurationS(startTime: number, endTime: number): number {
  return Math.max(1, Math.round(endTime - startTime));
}

/** `"The truth is…" (Episode 12, 4:05–4:52)`, at most 255 characters. */
function defaultClipName(input: DraftClipInput, contentName: string): string {
  const words = input.hookQuote.split(/\s+/);
  const head =
    words.length > 8
      ? `${words
          .slice(0, 8)
          .join(' ')
          .replace(/[,.;:!?]+$/, '')}…`
      : input.hookQuote;
  const name = `"${head}" (${contentName}, ${formatClipTime(input.startTime)}–${formatClipTime(input.endTime)})`;
  return name.length <= 255 ? name : `${name.slice(0, 254)}…`;
}

/**
 * Creates a Draft Clip for a ContentProduction. The content must exist. A draft with the
 * same quote and duration already on that content is answered instead of a second one: a
 * POST that timed out has an unknown outcome, so a retry must not duplicate it.
 */
export async function createDraftClip(crm: CrmClient, input: DraftClipInput): Promise<DraftClipResult> {
  const content = await crm.find('ContentProduction', input.contentProductionId);
  if (!content) {
    throw AppError.notFound(
      `contentProductionId: no ContentProduction ${input.contentProductionId} in the CRM`,
    );
  }
  const contentName = text(content.name) ?? content.id;
  const duration = clipDurationS(input.startTime, input.endTime);
  const existing = (
    await crm.listAll('Clip', {
      where: [
        { type: 'equals', attribute: 'contentProductionId', value: content.id },
        { type: 'equals', attribute: 'status', value: 'Draft' },
      ],
      select: ['name', 'hookQuote', 'duration', ...CLIP_FIT_FIELDS],
    })
  ).find((clip) => clip.hookQuote === input.hookQuote && clip.duration === duration);
  if (existing) {
    return {
      id: existing.id,
      name: text(existing.name) ?? '',
      duration,
      created: false,
      contentName,
      record: existing,
    };
  }
  const name = input.name ?? defaultClipName(input, contentName);
  const created = await crm.create('Clip', {
    name,
    status: 'Draft',
    hookQuote: input.hookQuote,
    duration,
    contentProductionId: content.id,
    ...(input.targetPlatforms?.length ? { targetPlatforms: input.targetPlatforms } : {}),
  });
  return { id: created.id, name, duration, created: true, contentName, record: created };
}

/** One page of ContentProduction records, newest first. */
export async function listContent(
  crm: CrmClient,
  page: { limit: number; offset: number },
): Promise<{ total: number; data: ContentSummary[] }> {
  const result = await crm.list('ContentProduction', {
    maxSize: page.limit,
    offset: page.offset,
    orderBy: 'createdAt',
    order: 'desc',
    select: ['name', 'showName', 'stage'],
  });
  return { total: result.total, data: result.list.map(summarise) };
}

function summarise(record: CrmRecord): ContentSummary {
  return {
    id: record.id,
    name: text(record.name) ?? '(untitled)',
    showName: text(record.showName),
    stage: text(record.stage),
  };
}
