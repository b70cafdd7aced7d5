import type { AnalyzeClipsResponse } from '../../../shared/api/clips.js';
import type { RecorderTake } from '../../../shared/api/recorder.js';
import type { ProductionAnalysis } from '../../../shared/api/productions.js';
import type { Db } from '../../kernel/db.js';
import type { KeptSentence } from './kept-sentences.js';

/** What an analysis answered, as kept (the envelope's success flag aside). */
export type StoredAnswer = Omit<AnalyzeClipsResponse, 'success'>;

export interface StoredAnalysis {
  id: string;
  contentProductionId: string;
  takeId: number | null;
  /** The EDL's clip name: the take's file name, else the content record's id. */
  takeFileName: string | null;
  /** The take as it stood when analysed (migration 028); null for no take, or before 028. */
  take: RecorderTake | null;
  createdAt: string;
  expiresAt: string;
  answer: StoredAnswer;
  sentences: KeptSentence[];
  /** Each suggestion's sentences as suggested, in answer order. */
  windows: Array<{ from: number; to: number }>;
}

/** A suggestion's reviewed in/out (sentences and seconds), and the draft made from it. */
export interface ClipReview {
  from: number;
  to: number;
  startTime: number;
  endTime: number;
  draftClipId: string | null;
}

interface AnalysisRow {
  id: string;
  content_production_id: string;
  take_id: number | null;
  take_file_name: string | null;
  take_json: string | null;
  created_at: string;
  expires_at: string;
  answer_json: string;
  sentences_json: string;
  windows_json: string;
}

interface ReviewRow {
  clip_number: number;
  from_sentence: number;
  to_sentence: number;
  start_time: number;
  end_time: number;
  draft_clip_id: string | null;
}

/** An analysis as the recent list shows it. */
export interface AnalysisSummary {
  id: string;
  contentProductionId: string;
  take: RecorderTake | null;
  takeFileName: string | null;
  createdAt: string;
  expiresAt: string;
  suggestions: number;
}

/** A Draft Clip made from a suggestion, where it was made and of which moment. */
export interface KeptDraft {
  analysisId: string;
  n: number;
  clipId: string;
  startTime: number;
  endTime: number;
}

interface SummaryRow {
  id: string;
  content_production_id: string;
  take_json: string | null;
  take_file_name: string | null;
  created_at: string;
  expires_at: string;
  suggestions: number;
}

interface DraftRow {
  analysis_id: string;
  clip_number: number;
  draft_clip_id: string;
  start_time: number;
  end_time: number;
}

const draftFromRow = (row: DraftRow): KeptDraft => ({
  analysisId: row.analysis_id,
  n: row.clip_number,
  clipId: row.draft_clip_id,
  startTime: row.start_time,
  endTime: row.end_time,
});

/** Stored clip analyses and their reviews (migrations 021, 022, 031). JSON parsed here, once. */
export function createClipsRepo(db: Db) {
  const insert = db.prepare<
    [string, string, number | null, string | null, string | null, string, string, string, string, string]
  >(
    `INSERT INTO clip_analyses (id, content_production_id, take_id, take_file_name, take_json, created_at,
       expires_at, answer_json, sentences_json, windows_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // An expired analysis is gone for readers at once, whether or not pruning has run yet.
  const byId = db.prepare<[string, string], AnalysisRow>(
    'SELECT * FROM clip_analyses WHERE id = ? AND expires_at > ?',
  );
  const reviewsOf = db.prepare<[string], ReviewRow>(
    'SELECT * FROM clip_reviews WHERE analysis_id = ? ORDER BY clip_number',
  );
  const upsertReview = db.prepare<[string, number, number, number, number, number, string]>(
    `INSERT INTO clip_reviews (analysis_id, clip_number, from_sentence, to_sentence, start_time, end_time, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (analysis_id, clip_number) DO UPDATE SET from_sentence = excluded.from_sentence,
       to_sentence = excluded.to_sentence, start_time = excluded.start_time, end_time = excluded.end_time,
       updated_at = excluded.updated_at`,
  );
  const setDraft = db.prepare<[string, string, string, number]>(
    'UPDATE clip_reviews SET draft_clip_id = ?, updated_at = ? WHERE analysis_id = ? AND clip_number = ?',
  );
  const pruneReviews = db.prepare<[string]>(
    'DELETE FROM clip_reviews WHERE analysis_id IN (SELECT id FROM clip_analyses WHERE expires_at <= ?)',
  );
  const prune = db.prepare<[string]>('DELETE FROM clip_analyses WHERE expires_at <= ?');
  const summaryColumns = `id, content_production_id, take_json, take_file_name, created_at, expires_at,
    json_array_length(windows_json) AS suggestions`;
  const recent = db.prepare<[string, number], SummaryRow>(
    `SELECT ${summaryColumns} FROM clip_analyses WHERE expires_at > ? ORDER BY created_at DESC, rowid DESC LIMIT ?`,
  );
  const recentOf = db.prepare<[string, string, number], SummaryRow>(
    `SELECT ${summaryColumns} FROM clip_analyses WHERE content_production_id = ? AND expires_at > ?
     ORDER BY created_at DESC, rowid DESC LIMIT ?`,
  );
  const draftsOf = db.prepare<[string], DraftRow>(
    `SELECT analysis_id, clip_number, draft_clip_id, start_time, end_time FROM clip_reviews
     WHERE analysis_id = ? AND draft_clip_id IS NOT NULL ORDER BY clip_number`,
  );
  // The drafts of a production's moment: same take (or both without one), overlapping in time.
  const draftsOverlapping = db.prepare<[string, number | null, number, number, string], DraftRow>(
    `SELECT r.analysis_id, r.clip_number, r.draft_clip_id, r.start_time, r.end_time
     FROM clip_analyses a JOIN clip_reviews r ON r.analysis_id = a.id
     WHERE a.content_production_id = ? AND a.take_id IS ? AND r.draft_clip_id IS NOT NULL
       AND r.start_time < ? AND r.end_time > ? AND a.expires_at > ?
     ORDER BY a.created_at, r.clip_number`,
  );
  const ofProduction = db.prepare<
    [string, string],
    Pick<
      AnalysisRow,
      'id' | 'take_id' | 'take_file_name' | 'take_json' | 'created_at' | 'expires_at' | 'answer_json'
    >
  >(
    `SELECT id, take_id, take_file_name, take_json, created_at, expires_at, answer_json FROM clip_analyses
     WHERE content_production_id = ? AND expires_at > ? ORDER BY created_at DESC, id`,
  );
  const keepUntil = db.prepare<[string, string, string]>(
    'UPDATE clip_analyses SET expires_at = ? WHERE id = ? AND expires_at < ?',
  );

  return {
    save(analysis: StoredAnalysis): void {
      insert.run(
        analysis.id,
        analysis.contentProductionId,
        analysis.takeId,
        analysis.takeFileName,
        analysis.take === null ? null : JSON.stringify(analysis.take),
        analysis.createdAt,
        analysis.expiresAt,
        JSON.stringify(analysis.answer),
        JSON.stringify(analysis.sentences),
        JSON.stringify(analysis.windows),
      );
    },
    /** The analysis unless unknown or expired at `now`. */
    find(id: string, now: string): StoredAnalysis | null {
      const row = byId.get(id, now);
      if (!row) return null;
      return {
        id: row.id,
        contentProductionId: row.content_production_id,
        takeId: row.take_id,
        takeFileName: row.take_file_name,
        take: row.take_json === null ? null : (JSON.parse(row.take_json) as RecorderTake),
        createdAt: row.created_at,
        expiresAt: row.expires_at,
        answer: JSON.parse(row.answer_json) as StoredAnswer,
        sentences: JSON.parse(row.sentences_json) as KeptSentence[],
        windows: JSON.parse(row.windows_json) as Array<{ from: number; to: number }>,
      };
    },
    /** A production's analyses still kept at `now`, newest first, as its thread shows them. */
    ofProduction(contentProductionId: string, now: string): ProductionAnalysis[] {
      return ofProduction.all(contentProductionId, now).map((row) => {
        const answer = JSON.parse(row.answer_json) as StoredAnswer;
        const take = row.take_json === null ? null : (JSON.parse(row.take_json) as RecorderTake);
        return {
          id: row.id,
          takeId: row.take_id,
          takeName: take?.name ?? row.take_file_name,
          createdAt: row.created_at,
          expiresAt: row.expires_at,
          suggestions: answer.suggestedClips.length,
          firstHook: answer.suggestedClips[0]?.hookQuote ?? null,
          drafts: reviewsOf
            .all(row.id)
            .flatMap((review) =>
              review.draft_clip_id === null ? [] : [{ n: review.clip_number, clipId: review.draft_clip_id }],
            ),
        };
      });
    },
    /** Reviewed suggestions of an analysis, by suggestion number (1 for the first). */
    reviews(id: string): Map<number, ClipReview> {
      return new Map(
        reviewsOf.all(id).map((row) => [
          row.clip_number,
          {
            from: row.from_sentence,
            to: row.to_sentence,
            startTime: row.start_time,
            endTime: row.end_time,
            draftClipId: row.draft_clip_id,
          },
        ]),
      );
    },
    saveReview(id: string, n: number, review: Omit<ClipReview, 'draftClipId'>, at: string): void {
      upsertReview.run(id, n, review.from, review.to, review.startTime, review.endTime, at);
    },
    /** Records the Draft Clip made from a reviewed suggestion (its row exists: saveReview first). */
    saveDraft(id: string, n: number, draftClipId: string, at: string): void {
      setDraft.run(draftClipId, at, id, n);
    },
    /** Analyses not expired at `now`, newest first: all, or one production's. */
    recent(
      filter: { contentProductionId?: string | undefined; limit: number },
      now: string,
    ): AnalysisSummary[] {
      const rows =
        filter.contentProductionId === undefined
          ? recent.all(now, filter.limit)
          : recentOf.all(filter.contentProductionId, now, filter.limit);
      return rows.map((row) => ({
        id: row.id,
        contentProductionId: row.content_production_id,
        take: row.take_json === null ? null : (JSON.parse(row.take_json) as RecorderTake),
        takeFileName: row.take_file_name,
        createdAt: row.created_at,
        expiresAt: row.expires_at,
        suggestions: row.suggestions,
      }));
    },
    /** The drafts made from an analysis's suggestions. */
    drafts(id: string): KeptDraft[] {
      return draftsOf.all(id).map(draftFromRow);
    },
    /** Drafts of a production's take (null: made without one) overlapping [startTime, endTime), oldest first. */
    draftsOverlapping(
      moment: { contentProductionId: string; takeId: number | null; startTime: number; endTime: number },
      now: string,
    ): KeptDraft[] {
      return draftsOverlapping
        .all(moment.contentProductionId, moment.takeId, moment.endTime, moment.startTime, now)
        .map(draftFromRow);
    },
    /** Keeps an analysis at least until `until` (its renders', DESIGN §6.10); never shortens it. */
    keepUntil(id: string, until: string): void {
      keepUntil.run(until, id, until);
    },
    /** Deletes analyses (and their reviews) expired at `now`; returns how many analyses went. */
    pruneExpired(now: string): number {
      return db.transaction(() => {
        pruneReviews.run(now);
        return prune.run(now).changes;
      })();
    },
  };
}
export type ClipsRepo = ReturnType<typeof createClipsRepo>;
