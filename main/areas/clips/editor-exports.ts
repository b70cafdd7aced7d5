import type { AnalysisExports, ReviewedClip } from '../../../shared/api/clips.js';
import type { RecorderTake } from '../../../shared/api/recorder.js';
import { captionRules, captionStats, type Caption } from '../../../shared/caption-rules.js';
import type { EdlFrameRate } from '../../../shared/frame-rates.js';
import type { AreaOffers } from '../area.js';
import { fileNameOf, transcriptPastTake, type ClipAnalyses } from './analyses.js';
import { clipCaptions, toSrt, toVtt } from './captions.js';
import { editTimeline, type EditTimeline, type TimelineTake } from './edit-timeline.js';
import { buildEdl } from './edl.js';
import { buildFcp7Xml } from './fcp7-xml.js';
import { buildOtio } from './otio.js';
import type { StoredAnalysis } from './repo.js';

/**
 * The editor's exports of a stored analysis (issue #39): EDL, OTIO, FCP7 XML and captions, per clip
 * and for the whole timeline, all from one edit timeline; named after the take and the clip; at the
 * take's own frame rate unless another is asked for; with the warnings an editor would want.
 */
export interface ExportOptions {
  /** Asked for; absent: the take's own rate, else 25. */
  fps?: EdlFrameRate | undefined;
  order: 'rank' | 'source';
  speakers: 'on' | 'off';
}

export interface ResolvedFps {
  used: EdlFrameRate;
  source: 'take' | 'request' | 'default';
  take: EdlFrameRate | null;
}

export interface ExportFile {
  text: string;
  fileName: string;
}

export const DEFAULT_FPS: EdlFrameRate = '25';
/** How much of a hook names a clip in the timeline formats. */
const CLIP_NAME_CHARS = 80;
/** The timeline's 01:00:00:00, on a caption file's clock. */
const TIMELINE_START_S = 3600;

interface Prepared {
  analysis: StoredAnalysis;
  take: RecorderTake | null;
  fps: ResolvedFps;
  timeline: EditTimeline;
  warnings: string[];
  base: string;
}

/** The recorder's takes (null: no such take, or the recorder does not run). */
export type TakeLookup = AreaOffers['take'];

export class EditorExports {
  constructor(
    private readonly analyses: ClipAnalyses,
    private readonly takes: TakeLookup,
  ) {}

  edl(analysisId: string, options: ExportOptions): ExportFile & { fps: ResolvedFps } {
    const prepared = this.prepare(analysisId, options);
    return { text: buildEdl(prepared.timeline), fileName: timelineName(prepared, 'edl'), fps: prepared.fps };
  }

  otio(analysisId: string, options: ExportOptions): ExportFile & { fps: ResolvedFps } {
    const prepared = this.prepare(analysisId, options);
    return {
      text: buildOtio(prepared.timeline),
      fileName: timelineName(prepared, 'otio'),
      fps: prepared.fps,
    };
  }

  xml(analysisId: string, options: ExportOptions): ExportFile & { fps: ResolvedFps } {
    const prepared = this.prepare(analysisId, options);
    return {
      text: buildFcp7Xml(prepared.timeline),
      fileName: timelineName(prepared, 'xml'),
      fps: prepared.fps,
    };
  }

  /** Suggestion n's captions, from 0. */
  clipCaptions(
    analysisId: string,
    n: number,
    options: Pick<ExportOptions, 'speakers'>,
    format: 'srt' | 'vtt',
  ): ExportFile & { captions: Caption[] } {
    const analysis = this.analyses.load(analysisId);
    const captions = this.captionsOf(analysis, n, options);
    const text = format === 'srt' ? toSrt(captions) : toVtt(captions);
    return { text, fileName: `${baseName(analysis)}-clip-${n}.${format}`, captions };
  }

  /** The whole timeline's captions: each clip's at its record time, from 01:00:00.000. */
  timelineCaptions(
    analysisId: string,
    options: ExportOptions,
    format: 'srt' | 'vtt',
  ): ExportFile & { captions: Caption[] } {
    const prepared = this.prepare(analysisId, options);
    const captions = this.timelineCaptionsOf(prepared, options);
    const text = format === 'srt' ? toSrt(captions, TIMELINE_START_S) : toVtt(captions, TIMELINE_START_S);
    return { text, fileName: `${prepared.base}-timeline.${format}`, captions };
  }

  summary(analysisId: string, options: ExportOptions): Omit<AnalysisExports, 'success'> {
    const prepared = this.prepare(analysisId, options);
    const { analysis, timeline, take, fps } = prepared;
    const path = (suffix: string, query: string) => `/clips/analyses/${analysis.id}/${suffix}${query}`;
    const timelineQuery = `?fps=${fps.used}&order=${options.order}`;
    const captionQuery = `?speakers=${options.speakers}`;
    const numbers = analysis.windows.map((_, i) => i + 1);
    const rules = captionRules({ speakerLabels: options.speakers === 'on' });
    const counts = (captions: Caption[]) => {
      const stats = captionStats(captions, rules);
      return { cues: stats.cues, overCps: stats.overCps, shortestS: stats.shortestS };
    };
    return {
      analysisId: analysis.id,
      fps,
      order: options.order,
      reel: timeline.reel,
      audio: timeline.audio,
      take: take
        ? {
            id: take.id,
            name: take.name,
            fileName: fileNameOf(take.filePath ?? take.name),
            filePath: take.filePath,
          }
        : null,
      files: {
        edl: { fileName: timelineName(prepared, 'edl'), path: path('edl', timelineQuery) },
        otio: { fileName: timelineName(prepared, 'otio'), path: path('otio', timelineQuery) },
        xml: { fileName: timelineName(prepared, 'xml'), path: path('xml', timelineQuery) },
        srt: {
          fileName: `${prepared.base}-timeline.srt`,
          path: path('srt', `${timelineQuery}&speakers=${options.speakers}`),
        },
        vtt: {
          fileName: `${prepared.base}-timeline.vtt`,
          path: path('vtt', `${timelineQuery}&speakers=${options.speakers}`),
        },
        clips: numbers.map((n) => ({
          n,
          srt: { fileName: `${prepared.base}-clip-${n}.srt`, path: path(`clips/${n}/srt`, captionQuery) },
          vtt: { fileName: `${prepared.base}-clip-${n}.vtt`, path: path(`clips/${n}/vtt`, captionQuery) },
        })),
      },
      captions: {
        timeline: counts(this.timelineCaptionsOf(prepared, options)),
        clips: numbers.map((n) => ({ n, ...counts(this.captionsOf(analysis, n, options)) })),
      },
      warnings: prepared.warnings,
    };
  }

  private captionsOf(
    analysis: StoredAnalysis,
    n: number,
    options: Pick<ExportOptions, 'speakers'>,
    frame?: { in: number; out: number },
  ): Caption[] {
    const span = this.analyses.span(analysis, n);
    const rules = captionRules({ speakerLabels: options.speakers === 'on' });
    return clipCaptions(analysis.sentences, span.from, span.to, rules, frame);
  }

  /** Each clip's captions cut as the timeline cuts it (on whole frames), at its record time. */
  private timelineCaptionsOf(prepared: Prepared, options: ExportOptions): Caption[] {
    const { timeline, analysis } = prepared;
    const perSecond = timeline.rate.framesPerSecond;
    return timeline.events.flatMap((event) => {
      const at = (event.recordIn - timeline.startFrame) / perSecond;
      const frame = { in: event.sourceIn / perSecond, out: event.sourceOut / perSecond };
      return this.captionsOf(analysis, event.n, options, frame).map((caption) => ({
        ...caption,
        start: at + caption.start,
        end: at + caption.end,
      }));
    });
  }

  private prepare(analysisId: string, options: ExportOptions): Prepared {
    const analysis = this.analyses.load(analysisId);
    const take = (analysis.takeId === null ? null : this.takes(analysis.takeId)) ?? analysis.take;
    const fps = resolveFps(options.fps, take);
    const clips = analysis.windows.map((_, i) => this.analyses.clip(analysis, i + 1));
    const timeline = editTimeline({
      title: take?.name ?? `Clips of ${analysis.contentProductionId}`,
      fps: fps.used,
      order: options.order,
      take: take ? timelineTake(take) : null,
      clips: clips.map((clip) => ({
        n: clip.n,
        startTime: clip.startTime,
        endTime: clip.endTime,
        name: clipName(clip, analysis.answer.suggestedClips[clip.n - 1]?.topic ?? ''),
      })),
    });
    const past = take ? transcriptPastTake(analysis.answer.stats.durationS, take) : null;
    const warnings = [...timeline.warnings, ...fpsWarnings(fps, take), ...(past ? [past] : [])];
    return { analysis, take, fps, timeline, warnings, base: baseName(analysis, take) };
  }
}

/** The take's rate by default (issues #38.5, #39.6), else the operator's choice, else 25. */
export function resolveFps(asked: EdlFrameRate | undefined, take: RecorderTake | null): ResolvedFps {
  const own = take?.frameRate ?? null;
  if (asked) return { used: asked, source: 'request', take: own };
  if (own) return { used: own, source: 'take', take: own };
  return { used: DEFAULT_FPS, source: 'default', take: null };
}

function fpsWarnings(fps: ResolvedFps, take: RecorderTake | null): string[] {
  if (!take) return [];
  if (fps.source === 'request' && fps.take && fps.take !== fps.used)
    return [`frame rate: ${fps.used} fps as asked, but take ${take.name} was recorded at ${fps.take} fps`];
  if (fps.source === 'default') {
    const why = take.video
      ? `OBS records it at ${take.video.fpsNumerator}/${take.video.fpsDenominator} frames a second, not an editor's rate`
      : 'OBS did not say its rate';
    return [`frame rate: ${DEFAULT_FPS} fps by default (${why}): choose the rate of the footage`];
  }
  return [];
}

function timelineTake(take: RecorderTake): TimelineTake {
  return {
    name: take.name,
    fileName: fileNameOf(take.filePath ?? take.name),
    filePath: take.filePath,
    reel: take.reel,
    durationS: take.durationS,
    audioChannels: take.audioChannels,
    video: take.video ? { width: take.video.width, height: take.video.height } : null,
    marks: take.marks.flatMap((mark) =>
      mark.offsetS === null ? [] : [{ id: mark.id, offsetS: mark.offsetS, label: mark.label }],
    ),
  };
}

function clipName(clip: ReviewedClip, topic: string): string {
  const name = (clip.hookQuote.trim() || topic).replace(/\s+/g, ' ');
  return name.length > CLIP_NAME_CHARS ? `${name.slice(0, CLIP_NAME_CHARS - 1).trimEnd()}…` : name;
}

/** Exports are named after the take (issue #39.7); an analysis of no take by its id. */
function baseName(analysis: StoredAnalysis, take: RecorderTake | null = analysis.take): string {
  return take?.name ?? analysis.answer.take?.name ?? `clips-${analysis.id}`;
}

function timelineName(prepared: Prepared, extension: string): string {
  return `${prepared.base}-${prepared.fps.used.replace('.', '_')}fps.${extension}`;
}
