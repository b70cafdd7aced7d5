import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseSync } from 'subtitle';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisExports } from '../../../shared/api/clips.js';
import type { RecorderTake } from '../../../shared/api/recorder.js';
import { frameRateFractions } from '../../../shared/frame-rates.js';
import {
  startSandboxCrm,
  startSandboxObs,
  type SandboxCrm,
  type SandboxObs,
} from '../../../main/sandbox/index.js';
import { eventually, startTestBridge, type TestBridge } from '../../support/bridge.js';
import { chromiumVttTexts, ffmpegSrtTexts, spokenWords } from '../../support/editor/caption-readers.js';
import { readEdl } from '../../support/editor/cmx-3600.js';
import { timeline as otioTimeline } from '../../support/editor/otio-schema.js';
import { readXmeml } from '../../support/editor/xmeml.js';
import { tempDir, type TempDir } from '../../support/temp-dir.js';
import { outsideTool } from '../../support/tools.js';

/**
 * Issue #39 over HTTP, read back as an editor's tools would: two takes of one day recorded on the
 * simulated OBS at 29.97 (GetVideoSettings) with a live mark, a WebVTT transcript analysed; the EDL,
 * OTIO and FCP7 XML read back (OTIO's cmx_3600 rules, OTIO's schemas, an XML parser) agree on every
 * in/out and marker; the captions read by FFmpeg's SRT decoder and Chromium's WebVTT parser show the
 * same words, "<" and ">" included.
 */
const ffmpeg = outsideTool('ffmpeg', 'FFMPEG_PATH');
const chromiumBrowser = outsideTool('chromium', 'CHROMIUM_PATH');
let clockMs = Date.parse('2026-12-01T09:00:00.000Z');
const now = () => new Date(clockMs);
const SPEECH = 'costs < 5% of sales and margins > 40%';
const MARK_AT = 19;

/** The panel fixture with one cue of prices said with < and >, and an escaped tag. */
function transcript(): string {
  const panel = readFileSync(new URL('../../fixtures/transcripts/panel.vtt', import.meta.url), 'utf8');
  return panel.replace(
    /<v Lena Hoffmann>I'm Lena Hoffmann, I run the workplace research team at Brightfield,<\/v>/,
    `<v Lena Hoffmann>Our ${SPEECH.replace('<', '&lt;').replace('>', '&gt;')}, and we write &lt;b&gt; for bold.</v>`,
  );
}

let videos: TempDir;
let crm: SandboxCrm;
let obs: SandboxObs;
let bridge: TestBridge;
let episodeId: string;
let takes: RecorderTake[];

/** `written`: the file the simulated OBS (which writes nothing) names, made once it names it. */
async function record(
  seconds: number,
  mark: number | null,
  written?: (path: string) => void,
): Promise<RecorderTake> {
  const started = obs.startRecording();
  written?.(started);
  await eventually(async () => (await bridge.call('GET', '/api/recorder/status')).body.recording.active);
  if (mark !== null) {
    clockMs += mark * 1000;
    await bridge.call('POST', '/api/recorder/marks', { body: { label: 'Café prices' } });
  }
  clockMs += (seconds - (mark ?? 0)) * 1000;
  const path = obs.stopRecording();
  return eventually(async () => {
    const list = (await bridge.call('GET', '/api/recorder/takes')).body.takes as RecorderTake[];
    return list.find((take) => take.filePath === path && take.stoppedAt !== null) ?? null;
  });
}

beforeAll(async () => {
  videos = tempDir('obs-videos');
  crm = await startSandboxCrm();
  obs = await startSandboxObs({ now, recordingDir: videos.path });
  obs.setVideoSettings({ fpsNumerator: 30000, fpsDenominator: 1001 });
  bridge = await startTestBridge(
    { CRM_URL: crm.url, CRM_API_KEY: crm.apiKey, RECORDER_OBS_URL: obs.url },
    { areas: ['recorder', 'clips', 'health'], now },
  );
  episodeId = crm.create('ContentProduction', { name: 'Episode 52', showName: 'Show' }).id;
  await eventually(async () => (await bridge.call('GET', '/api/recorder/status')).body.connection.connected);
  await bridge.call('POST', '/api/recorder/filename', { body: { filename: '20261201_Episode_52' } });
  // The simulated OBS writes nothing: its first file is made as it starts, stereo, for ffprobe to read.
  const stereo = (path: string) =>
    ffmpeg.path &&
    execFileSync(ffmpeg.path, [
      ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=160x90:rate=30000/1001:duration=1'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-ac', '2', '-shortest'],
      path,
    ]);
  takes = [await record(1800, MARK_AT, stereo), await record(3.4, null)];
  if (ffmpeg.path)
    await eventually(async () =>
      ((await bridge.call('GET', '/api/recorder/takes')).body.takes as RecorderTake[]).some(
        (take) => take.audioChannels === 2,
      ),
    );
});
afterAll(async () => {
  await bridge?.close();
  await obs?.stop();
  await crm?.stop();
  videos?.remove();
});

const analyze = async (takeId?: number) => {
  const answer = await bridge.call('POST', '/clips/analyze', {
    body: {
      contentProductionId: episodeId,
      transcript: transcript(),
      maxClips: 4,
      ...(takeId ? { takeId } : {}),
    },
  });
  expect(answer.status).toBe(200);
  return answer.body as {
    analysisId: string;
    warnings: string[];
    suggestedClips: Array<{ startTime: number; endTime: number }>;
  };
};
const get = (path: string) => bridge.call('GET', path);

describe('the editor conforms a take (issue #39)', () => {
  let analysisId: string;
  let clips: Array<{ startTime: number; endTime: number }>;
  beforeAll(async () => {
    const analysis = await analyze(takes[0]!.id);
    analysisId = analysis.analysisId;
    clips = analysis.suggestedClips;
  });

  it("answers the take's rate, reel and audio, and names the files after the take and the clip", async () => {
    const summary = (await get(`/clips/analyses/${analysisId}/exports`)).body as AnalysisExports;
    expect(summary.fps).toEqual({ used: '29.97', source: 'take', take: '29.97' });
    expect(summary.reel).toBe(takes[0]!.reel);
    expect(summary.audio).toEqual({ channels: 2, code: 'AA/V', assumed: ffmpeg.path === null });
    expect(summary.files.edl.fileName).toBe('20261201_Episode_52-29_97fps.edl');
    expect(summary.files.clips[2]!.srt.fileName).toBe('20261201_Episode_52-clip-3.srt');
    expect(summary.warnings.filter((w) => !w.startsWith('audio:'))).toEqual([]);
    const srt = await get(`/clips/analyses/${analysisId}/clips/3/srt`);
    expect(srt.headers.get('content-disposition')).toBe(
      'attachment; filename="20261201_Episode_52-clip-3.srt"',
    );
  });

  it('gives each take of the day its own reel in the EDL', async () => {
    const other = await analyze(takes[1]!.id);
    const first = readEdl((await get(`/clips/analyses/${analysisId}/edl`)).body, [30000, 1001]);
    const second = readEdl((await get(`/clips/analyses/${other.analysisId}/edl`)).body, [30000, 1001]);
    expect(takes[0]!.reel).not.toBe(takes[1]!.reel);
    expect(new Set(first.events.map((e) => e.reel))).toEqual(new Set([takes[0]!.reel]));
    expect(new Set(second.events.map((e) => e.reel))).toEqual(new Set([takes[1]!.reel]));
  });

  it('reads back the EDL, OTIO and XML alike: every in/out and marker, each marker inside its clip', async () => {
    for (const order of ['rank', 'source'] as const) {
      const query = `?order=${order}`;
      const edl = readEdl((await get(`/clips/analyses/${analysisId}/edl${query}`)).body, [30000, 1001]);
      const otio = otioTimeline.parse((await get(`/clips/analyses/${analysisId}/otio${query}`)).body);
      const xml = readXmeml((await get(`/clips/analyses/${analysisId}/xml${query}`)).body).xmeml.sequence;
      const video = otio.tracks.children.find((track) => track.kind === 'Video')!;
      const clipItems = xml.media.video.track[0]!.clipitem;
      expect(edl.events).toHaveLength(clips.length);
      expect(otio.tracks.children.map((t) => t.name)).toEqual(['V', 'A1', 'A2']);
      expect(xml.media.audio!.track).toHaveLength(2);
      let markers = 0;
      edl.events.forEach((event, i) => {
        expect(event.tracks).toEqual(['V', 'A1', 'A2']);
        const clip = video.children[i]!;
        if (clip.OTIO_SCHEMA !== 'Clip.2') throw new Error('a gap in the timeline');
        const item = clipItems[i]!;
        const range = clip.source_range!;
        expect([range.start_time.value, range.start_time.value + range.duration.value]).toEqual([
          event.sourceIn,
          event.sourceOut,
        ]);
        expect([item.in, item.out]).toEqual([event.sourceIn, event.sourceOut]);
        expect(item.start + xml.timecode.frame).toBe(event.recordIn);
        const edlMarks = event.markers.map((m) => m.frame);
        expect(clip.markers.map((m) => m.marked_range.start_time.value)).toEqual(edlMarks);
        expect(item.marker.map((m) => m.in)).toEqual(edlMarks);
        for (const frame of edlMarks) {
          expect(frame).toBeGreaterThanOrEqual(event.sourceIn);
          expect(frame).toBeLessThan(event.sourceOut);
        }
        markers += edlMarks.length;
        expect(clip.media_references.DEFAULT_MEDIA!.target_url).toBe(
          `file://${videos.path}/20261201_Episode_52.mkv`,
        );
        expect(item.file['@_id']).toBe('file-1');
      });
      expect(markers).toBe(1);
      expect(xml.rate).toEqual({ timebase: 30, ntsc: 'TRUE' });
      expect(clipItems[0]!.file.pathurl).toBe(`file://localhost${videos.path}/20261201_Episode_52.mkv`);
      // Record contiguous from 01:00:00;00; each source within a frame of the analysis.
      expect(edl.events[0]!.recordIn).toBe(107892);
      const fps = frameRateFractions['29.97'].numerator / frameRateFractions['29.97'].denominator;
      for (let i = 1; i < edl.events.length; i++)
        expect(edl.events[i]!.recordIn).toBe(edl.events[i - 1]!.recordOut);
      const sorted = order === 'source' ? [...clips].sort((a, b) => a.startTime - b.startTime) : clips;
      edl.events.forEach((event, i) => {
        expect(Math.abs(event.sourceIn / fps - sorted[i]!.startTime)).toBeLessThanOrEqual(1 / fps);
        expect(Math.abs(event.sourceOut / fps - sorted[i]!.endTime)).toBeLessThanOrEqual(1 / fps);
      });
    }
  });

  it(`shows the same words in the SRT (FFmpeg) and the WebVTT (Chromium) of a clip${ffmpeg.skipped}${chromiumBrowser.skipped}`, async (context) => {
    if (!ffmpeg.path || !chromiumBrowser.path) return context.skip();
    const srt = (await get(`/clips/analyses/${analysisId}/clips/1/srt`)).body as string;
    const vtt = (await get(`/clips/analyses/${analysisId}/clips/1/vtt`)).body as string;
    const fromSrt = spokenWords(ffmpegSrtTexts(ffmpeg.path, srt));
    const fromVtt = spokenWords(await chromiumVttTexts(chromiumBrowser.path, vtt));
    expect(fromSrt).toContain(SPEECH);
    expect(fromSrt).toContain('we write <b> for bold.');
    expect(fromVtt).toBe(fromSrt);
  });

  it('captions the whole timeline from 01:00:00,000, no cue under 5/6 s, counting cues over 20 cps', async () => {
    const answer = await get(`/clips/analyses/${analysisId}/srt`);
    const cues = parseSync(answer.body as string).flatMap((node) => (node.type === 'cue' ? [node.data] : []));
    expect(cues[0]!.start).toBe(3_600_000);
    expect(Number(answer.headers.get('x-caption-cues'))).toBe(cues.length);
    expect(Number(answer.headers.get('x-caption-cues-over-cps'))).toBeGreaterThanOrEqual(0);
    for (const cue of cues) {
      expect(cue.end - cue.start).toBeGreaterThanOrEqual(833);
      expect(cue.end - cue.start).toBeLessThanOrEqual(7000);
      for (const line of cue.text.split('\n')) expect(line.length).toBeLessThanOrEqual(42);
    }
    const summary = (await get(`/clips/analyses/${analysisId}/exports`)).body as AnalysisExports;
    expect(summary.captions.timeline.cues).toBe(cues.length);
  });
});

describe('what the editor is warned of (issue #39.1, #39.7)', () => {
  it('without a take: reel AX, no clip name invented, and the answer says so', async () => {
    const { analysisId } = await analyze();
    const edl = (await get(`/clips/analyses/${analysisId}/edl`)).body as string;
    expect(edl).not.toContain('FROM CLIP NAME');
    expect(readEdl(edl, 25).events.every((event) => event.reel === 'AX')).toBe(true);
    const summary = (await get(`/clips/analyses/${analysisId}/exports`)).body as AnalysisExports;
    expect(summary.fps).toEqual({ used: '25', source: 'default', take: null });
    expect(summary.warnings[0]).toMatch(/^no take: .*reel AX/);
  });

  it('a transcript longer than its take is a warning naming both lengths', async () => {
    const analysis = await analyze(takes[1]!.id);
    const warning = analysis.warnings.find((w) => w.startsWith('the transcript runs'));
    expect(warning).toMatch(/lasted 0:03 \(3\.4 s\)/);
    const summary = (await get(`/clips/analyses/${analysis.analysisId}/exports`)).body as AnalysisExports;
    expect(summary.warnings).toContain(warning);
    expect(summary.warnings.some((w) => /past the end of the recording/.test(w))).toBe(true);
  });

  it('a rate other than the take’s is used when asked, and said', async () => {
    const { analysisId } = await analyze(takes[0]!.id);
    const edl = await get(`/clips/analyses/${analysisId}/edl?fps=25`);
    expect(edl.headers.get('x-frame-rate')).toBe('25; source=request');
    const summary = (await get(`/clips/analyses/${analysisId}/exports?fps=25`)).body as AnalysisExports;
    expect(summary.warnings).toContain(
      'frame rate: 25 fps as asked, but take 20261201_Episode_52 was recorded at 29.97 fps',
    );
  });
});
