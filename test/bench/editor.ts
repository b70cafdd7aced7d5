import { readEdl } from '../support/editor/cmx-3600.js';
import { timeline as otioTimeline } from '../support/editor/otio-schema.js';
import { readXmeml } from '../support/editor/xmeml.js';
import { captionRules, captionStats } from '../../shared/caption-rules.js';
import { frameRateFractions } from '../../shared/frame-rates.js';
import { analyzeAndKeep } from '../../main/areas/clips/analyze.js';
import { clipCaptions } from '../../main/areas/clips/captions.js';
import { editTimeline } from '../../main/areas/clips/edit-timeline.js';
import { buildEdl } from '../../main/areas/clips/edl.js';
import { buildFcp7Xml } from '../../main/areas/clips/fcp7-xml.js';
import { buildOtio } from '../../main/areas/clips/otio.js';
import { percentile, type Bench, type BenchResult } from './report.js';
import { threeHourTranscript } from './transcripts.js';

const RUNS = 30;
const median = (values: number[]) => percentile(values, 50);

function time(work: () => unknown): number {
  work(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  return Number(median(times).toFixed(2));
}

/**
 * The editor's exports of the clips bench's three-hour transcript with 20 clips (issue #39): how
 * long the EDL, OTIO and FCP7 XML take to write, and to read back as the tests do (OTIO's cmx_3600
 * rules, OTIO's schemas, an XML parser); and how the captions of the 20 clips keep the caption
 * rules (cues, under 5/6 s, the shortest, over 20 characters a second, over 7 s).
 */
export const editorBench: Bench = {
  name: 'editor',
  async run(): Promise<BenchResult[]> {
    const { analysis, kept } = analyzeAndKeep(threeHourTranscript('stamped'), { maxClips: 20, marks: [] });
    const clips = kept.windows.map((window, i) => ({
      n: i + 1,
      startTime: kept.sentences[window.from]!.start,
      endTime: kept.sentences[window.to]!.end,
      name: analysis.suggestedClips[i]!.hookQuote,
    }));
    const marks = Array.from({ length: 18 }, (_, i) => ({
      id: i + 1,
      offsetS: 300 + i * 600,
      label: `mark ${i + 1}`,
    }));
    const timeline = editTimeline({
      title: '20261201_Episode_52_T02',
      fps: '29.97',
      order: 'rank',
      take: {
        name: '20261201_Episode_52_T02',
        fileName: '20261201_Episode_52_T02.mkv',
        filePath: '/home/studio/Videos/20261201_Episode_52_T02.mkv',
        reel: '26120102',
        durationS: 3 * 3600,
        audioChannels: 2,
        video: { width: 1920, height: 1080 },
        marks,
      },
      clips,
    });
    const edl = buildEdl(timeline);
    const otio = buildOtio(timeline);
    const xml = buildFcp7Xml(timeline);
    const rate: [number, number] = [
      frameRateFractions['29.97'].numerator,
      frameRateFractions['29.97'].denominator,
    ];
    const note = `${clips.length} clips, ${timeline.events.reduce((sum, e) => sum + e.markers.length, 0)} marks in them, 29.97 drop-frame, median of ${RUNS}`;

    const rules = captionRules();
    const captions = kept.windows.flatMap((window) =>
      clipCaptions(kept.sentences, window.from, window.to, rules),
    );
    const stats = captionStats(captions, rules);
    return [
      {
        name: 'editor: write EDL / OTIO / FCP7 XML (3 h, 20 clips)',
        figures: {
          'EDL ms': time(() => buildEdl(timeline)),
          'OTIO ms': time(() => buildOtio(timeline)),
          'XML ms': time(() => buildFcp7Xml(timeline)),
          'EDL KB': Math.round(edl.length / 1024),
          'OTIO KB': Math.round(otio.length / 1024),
          'XML KB': Math.round(xml.length / 1024),
        },
        note,
      },
      {
        name: 'editor: read back EDL / OTIO / XML (as the tests)',
        figures: {
          'EDL ms': time(() => readEdl(edl, rate)),
          'OTIO ms': time(() => otioTimeline.parse(JSON.parse(otio))),
          'XML ms': time(() => readXmeml(xml)),
        },
        note,
      },
      {
        name: 'editor: captions of the 20 clips (42-character lines)',
        figures: {
          cues: stats.cues,
          'under 5/6 s': stats.underMin,
          'shortest s': Number((stats.shortestS ?? 0).toFixed(2)),
          'over 20 cps': stats.overCps,
          'over 7 s': stats.overMax,
        },
      },
    ];
  },
};
