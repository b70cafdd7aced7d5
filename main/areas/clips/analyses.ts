import { randomBytes } from 'node:crypto';
import { formatClipTime, type AnalyzeClipsResponse, type ReviewedClip } from '../../../shared/api/clips.js';
import type { RecorderTake } from '../../../shared/api/recorder.js';
import { AppError } from '../../kernel/app-error.js';
import type { Clock } from '../../kernel/clock.js';
import type { AnalysisOutcome } from './runner.js';
import type { AnalysisSummary, ClipsRepo, KeptDraft, StoredAnalysis } from './repo.js';
import { describeReview, nudgeSpan, NudgeError, type SentenceSpan } from './review.js';

/** How long an analysis is kept for exports and review (DESIGN §6.6). */
export const ANALYSIS_KEPT_DAYS = 30;

/** The last part of a path as OBS wrote it (Windows or POSIX). */
export const fileNameOf = (path: string) => path.split(/[\\/]/).pop() ?? path;

/** A transcript longer than its take is of another recording, or cut past the end (issue #39.7). */
const PAST_TAKE_TOLERANCE_S = 1;

export function transcriptPastTake(transcriptS: number, take: RecorderTake): string | null {
  if (take.durationS === null || transcriptS <= take.durationS + PAST_TAKE_TOLERANCE_S) return null;
  const length = (s: number) => `${formatClipTime(s)} (${Number(s.toFixed(1))} s)`;
  return `the transcript runs ${length(transcriptS)} but take ${take.name} lasted ${length(take.durationS)}: clips past its end cut beyond the recording (is the transcript of this take?)`;
}

/**
 * Stored analyses (DESIGN §6.6, issue #28.4–5): kept 30 days with their sentences, so each
 * suggestion's captions and the EDL can be fetched, and its in/out reviewed by whole sentences.
 */
export class ClipAnalyses {
  constructor(
    private readonly repo: ClipsRepo,
    private readonly now: Clock,
  ) {}

  store(
    contentProductionId: string,
    take: RecorderTake | null,
    outcome: AnalysisOutcome,
  ): Omit<AnalyzeClipsResponse, 'success'> {
    const created = this.now();
    const expiresAt = new Date(created.getTime() + ANALYSIS_KEPT_DAYS * 86_400_000).toISOString();
    const fileName = take ? fileNameOf(take.filePath ?? take.name) : null;
    const answer = {
      contentProductionId,
      analysisId: `an_${randomBytes(12).toString('base64url')}`,
      expiresAt,
      take: take && fileName !== null ? { id: take.id, name: take.name, fileName } : null,
      ...outcome.analysis,
    };
    const longer = take ? transcriptPastTake(answer.stats.durationS, take) : null;
    if (longer) answer.warnings = [...answer.warnings, longer];
    this.repo.save({
      id: answer.analysisId,
      contentProductionId,
      takeId: take?.id ?? null,
      takeFileName: fileName,
      take,
      createdAt: created.toISOString(),
      expiresAt,
      answer,
      sentences: outcome.kept.sentences,
      windows: outcome.kept.windows,
    });
    return answer;
  }

  /** The analysis, or 404 naming the field. */
  load(id: string): StoredAnalysis {
    const analysis = this.repo.find(id, this.now().toISOString());
    if (!analysis) {
      throw AppError.notFound(
        `analysisId: no analysis ${id} (unknown, or older than ${ANALYSIS_KEPT_DAYS} days: analyse again)`,
      );
    }
    return analysis;
  }

  /** Suggestion `n` (1 for the first) as reviewed; 404 naming `n` when the analysis has fewer. */
  clip(analysis: StoredAnalysis, n: number): ReviewedClip {
    return describeReview(analysis.sentences, n, this.span(analysis, n), this.suggested(analysis, n));
  }

  nudge(analysisId: string, n: number, edge: 'in' | 'out', by: number): ReviewedClip {
    const analysis = this.load(analysisId);
    let next: SentenceSpan;
    try {
      next = nudgeSpan(analysis.sentences, this.span(analysis, n), edge, by);
    } catch (error) {
      if (!(error instanceof NudgeError)) throw error;
      throw AppError.validation(`body.sentences: ${error.message}`, [
        { field: 'body.sentences', rule: 'clip-bounds', message: error.message },
      ]);
    }
    const clip = describeReview(analysis.sentences, n, next, this.suggested(analysis, n));
    this.keep(analysis.id, n, next, clip);
    return clip;
  }

  /** Keeps the exact in/out of suggestion `n` beside its analysis, with the Draft Clip made from it. */
  keepDraft(analysis: StoredAnalysis, n: number, draftClipId: string): void {
    const span = this.span(analysis, n);
    this.keep(analysis.id, n, span, this.clip(analysis, n));
    this.repo.saveDraft(analysis.id, n, draftClipId, this.now().toISOString());
  }

  /** Recent analyses (all, or a production's), newest first, each with the drafts made from it. */
  recent(filter: {
    contentProductionId?: string | undefined;
    limit: number;
  }): Array<AnalysisSummary & { drafts: KeptDraft[] }> {
    return this.repo
      .recent(filter, this.now().toISOString())
      .map((summary) => ({ ...summary, drafts: this.repo.drafts(summary.id) }));
  }

  /**
   * Each suggestion as the operator left it: its review (null: never touched) and its draft — its
   * own, or one made of the same moment from another analysis (issue #44.3).
   */
  kept(
    analysis: StoredAnalysis,
  ): Array<{ n: number; reviewed: ReviewedClip | null; draft: KeptDraft | null }> {
    const reviews = this.repo.reviews(analysis.id);
    const own = new Map(this.repo.drafts(analysis.id).map((draft) => [draft.n, draft]));
    return analysis.windows.map((_window, i) => {
      const n = i + 1;
      const reviewed = reviews.has(n) ? this.clip(analysis, n) : null;
      return { n, reviewed, draft: own.get(n) ?? this.sameMoment(analysis, n) };
    });
  }

  /**
   * A draft made of the same moment from another suggestion: the production's same take (or both
   * without one), overlapping by at least half of the shorter clip. The oldest such draft.
   */
  sameMoment(analysis: StoredAnalysis, n: number): KeptDraft | null {
    const { startTime, endTime } = this.clip(analysis, n);
    const drafts = this.repo.draftsOverlapping(
      { contentProductionId: analysis.contentProductionId, takeId: analysis.takeId, startTime, endTime },
      this.now().toISOString(),
    );
    return (
      drafts.find((draft) => {
        if (draft.analysisId === analysis.id && draft.n === n) return false;
        const overlap = Math.min(endTime, draft.endTime) - Math.max(startTime, draft.startTime);
        return overlap >= Math.min(endTime - startTime, draft.endTime - draft.startTime) / 2;
      }) ?? null
    );
  }

  /** The Draft Clip made from suggestion `n`, if any. */
  draftOf(id: string, n: number): string | null {
    return this.repo.reviews(id).get(n)?.draftClipId ?? null;
  }

  /** Kept past its 30 days while a render of it is (DESIGN §6.10): its in/out and captions stay at hand. */
  keepUntil(id: string, until: string): void {
    this.repo.keepUntil(id, until);
  }

  pruneExpired(): number {
    return this.repo.pruneExpired(this.now().toISOString());
  }

  private suggested(analysis: StoredAnalysis, n: number): SentenceSpan {
    const window = analysis.windows[n - 1];
    if (!window) {
      throw AppError.notFound(
        `n: analysis ${analysis.id} has ${analysis.windows.length} suggestion${analysis.windows.length === 1 ? '' : 's'}, not ${n}`,
      );
    }
    return window;
  }

  /** Suggestion `n`'s sentences as reviewed. */
  span(analysis: StoredAnalysis, n: number): SentenceSpan {
    const suggested = this.suggested(analysis, n);
    return this.repo.reviews(analysis.id).get(n) ?? suggested;
  }

  private keep(id: string, n: number, span: SentenceSpan, clip: ReviewedClip): void {
    this.repo.saveReview(
      id,
      n,
      { from: span.from, to: span.to, startTime: clip.startTime, endTime: clip.endTime },
      this.now().toISOString(),
    );
  }
}
