import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeTranscript } from '../../../main/areas/clips/analyze.js';
import type { SuggestedClip } from '../../../shared/api/clips.js';

/**
 * Realistic 10–20 minute transcripts (an interview, a solo episode, a panel), each with a
 * sidecar listing its strong moments and its filler (greetings, sponsor reads, housekeeping),
 * marked by the person who wrote them, not by the analyser.
 */
interface Moments {
  title: string;
  format: string;
  durationS: number;
  strong: Array<{ id: string; description: string; start: number; end: number }>;
  filler: Array<{ id: string; description: string; start: number; end: number }>;
}

const read = (name: string) =>
  readFileSync(new URL(`../../fixtures/transcripts/${name}`, import.meta.url), 'utf8');
const fixtures = [
  { file: 'interview.txt', moments: 'interview.moments.json' },
  { file: 'solo.srt', moments: 'solo.moments.json' },
  { file: 'panel.vtt', moments: 'panel.moments.json' },
].map(({ file, moments }) => ({ file, text: read(file), moments: JSON.parse(read(moments)) as Moments }));

const TOP = 5;
const overlap = (a: { start: number; end: number }, clip: SuggestedClip) =>
  Math.max(0, Math.min(a.end, clip.endTime) - Math.max(a.start, clip.startTime));
/** A clip catches a moment when most of the moment is in it, or most of the clip is the moment. */
const catches = (clip: SuggestedClip, moment: { start: number; end: number }) =>
  overlap(moment, clip) >= 0.5 * Math.min(moment.end - moment.start, clip.duration);

const results = fixtures.map((fixture) => {
  const clips = analyzeTranscript(fixture.text, { maxClips: TOP }).suggestedClips;
  const hits = fixture.moments.strong.filter((m) => clips.some((clip) => catches(clip, m)));
  return { ...fixture, clips, hits };
});

describe('suggestion quality on marked transcripts', () => {
  for (const { file, moments, clips, hits } of results) {
    describe(file, () => {
      it('is a 10–20 minute transcript with marked strong moments and filler', () => {
        expect(moments.durationS).toBeGreaterThanOrEqual(600);
        expect(moments.durationS).toBeLessThanOrEqual(1200);
        expect(moments.strong.length).toBeGreaterThanOrEqual(4);
        expect(moments.filler.length).toBeGreaterThanOrEqual(2);
      });

      it(`has most strong moments in its top ${TOP} suggestions`, () => {
        expect(hits.length, `caught ${hits.map((h) => h.id).join(', ')}`).toBeGreaterThanOrEqual(
          Math.ceil(moments.strong.length * 0.75),
        );
        expect(
          moments.strong.some((m) => catches(clips[0]!, m)),
          'the best suggestion is a marked moment',
        ).toBe(true);
      });

      it('keeps greetings, sponsor reads and housekeeping out of the top suggestions', () => {
        for (const clip of clips) {
          for (const filler of moments.filler) {
            // A sentence of slack at a boundary is tolerated; a clip of filler is not.
            expect(overlap(filler, clip), `${filler.id} in clip at ${clip.startTime}`).toBeLessThanOrEqual(3);
          }
        }
      });
    });
  }

  it('catches at least 80 % of all marked moments across the three', () => {
    const caught = results.reduce((sum, r) => sum + r.hits.length, 0);
    const marked = results.reduce((sum, r) => sum + r.moments.strong.length, 0);
    expect(caught / marked).toBeGreaterThanOrEqual(0.8);
  });
});
