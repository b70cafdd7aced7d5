import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeAndKeep, analyzeTranscript } from '../../../main/areas/clips/analyze.js';
import { formatMoment } from '../../../main/areas/clips/pin.js';

const interview = readFileSync(new URL('../../fixtures/transcripts/interview.txt', import.meta.url), 'utf8');

/** Ten minutes of nothing much after the interview (from 00:12:00), a line every 6 s. */
function withDullPassage(): string {
  const rooms = ['two', 'three', 'four', 'five', 'six'];
  const lines: string[] = [];
  for (let i = 0; i < 100; i++) {
    const at = 12 * 60 + i * 6;
    const stamp = `[00:${String(Math.floor(at / 60)).padStart(2, '0')}:${String(at % 60).padStart(2, '0')}]`;
    lines.push(`${stamp} CLERK: The form for room ${rooms[i % rooms.length]} goes in the tray by the door.`);
  }
  return `${interview.trimEnd()}\n${lines.join('\n')}\n`;
}

const transcript = withDullPassage();
const contains = (clip: { startTime: number; endTime: number }, at: number) =>
  clip.startTime <= at && at <= clip.endTime;

describe('live marks pin clips (DESIGN §6.6, issue #28.1)', () => {
  const markAt = 16 * 60 + 33.4; // 00:16:33, deep in the dull passage

  it('a mark in a dull passage still yields a clip containing it, first, in words', () => {
    const unmarked = analyzeTranscript(transcript, { maxClips: 3 });
    expect(unmarked.suggestedClips.some((clip) => contains(clip, markAt))).toBe(false);

    const marked = analyzeTranscript(transcript, {
      maxClips: 3,
      marks: [{ id: 7, offsetS: markAt, label: 'the tray' }],
    });
    const [pinned, ...scored] = marked.suggestedClips;
    expect(contains(pinned!, markAt)).toBe(true);
    expect(pinned!.duration).toBeGreaterThanOrEqual(15);
    expect(pinned!.duration).toBeLessThanOrEqual(90);
    expect(pinned!.reason).toMatch(/^Marked live at 00:16:33 \("the tray"\)/);
    expect(pinned!.marks).toEqual([{ id: 7, offsetS: markAt, label: 'the tray' }]);
    // Then the best scored clips, as many as still fit in maxClips, none overlapping the pinned one.
    expect(scored).toHaveLength(2);
    for (const clip of scored) {
      expect(clip.marks).toEqual([]);
      expect(clip.endTime <= pinned!.startTime || clip.startTime >= pinned!.endTime).toBe(true);
    }
  });

  it('starts and ends the pinned clip on sentence boundaries', () => {
    const { analysis, kept } = analyzeAndKeep(transcript, {
      maxClips: 1,
      marks: [{ id: 1, offsetS: markAt, label: null }],
    });
    const window = kept.windows[0]!;
    expect(analysis.suggestedClips[0]!.startTime).toBeCloseTo(kept.sentences[window.from]!.start, 3);
    expect(analysis.suggestedClips[0]!.endTime).toBeCloseTo(kept.sentences[window.to]!.end, 3);
  });

  it('two marks in one window share it; marks beyond maxClips or past the end are named', () => {
    const result = analyzeTranscript(transcript, {
      maxClips: 2,
      marks: [
        { id: 3, offsetS: 20 * 60 + 1, label: null },
        { id: 1, offsetS: markAt, label: null },
        { id: 2, offsetS: markAt + 1, label: null },
        { id: 4, offsetS: 21 * 60 + 20, label: null },
        { id: 5, offsetS: 3 * 3600, label: null },
      ],
    });
    expect(result.suggestedClips.map((clip) => clip.marks.map((m) => m.id))).toEqual([[1, 2], [3]]);
    expect(result.suggestedClips[0]!.reason).toMatch(/^Marked live at 00:16:33, 00:16:34;/);
    expect(result.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/mark at 00:21:20 is not pinned: 2 clips asked for, all pinned/),
        expect.stringMatching(
          /^the mark at 03:00:00 is past the transcript's end \(00:2\d:\d\d\): not pinned$/,
        ),
      ]),
    );
  });

  it('is deterministic, whatever order the marks come in', () => {
    const marks = [
      { id: 1, offsetS: 100, label: null },
      { id: 2, offsetS: markAt, label: null },
    ];
    expect(analyzeTranscript(transcript, { maxClips: 4, marks })).toEqual(
      analyzeTranscript(transcript, { maxClips: 4, marks: [...marks].reverse() }),
    );
  });

  it('writes moments as hh:mm:ss', () => {
    expect([formatMoment(751.9), formatMoment(3 * 3600 + 5), formatMoment(0)]).toEqual([
      '00:12:31',
      '03:00:05',
      '00:00:00',
    ]);
  });
});

describe('a mark before the first words', () => {
  it('pins a 15–90 s clip from the first sentence (found by the e2e run: it pinned one 4 s sentence)', () => {
    const [clip] = analyzeTranscript(interview, {
      maxClips: 1,
      marks: [{ id: 1, offsetS: 1, label: null }],
    }).suggestedClips;
    expect(clip!.startTime).toBe(4);
    expect(clip!.duration).toBeGreaterThanOrEqual(15);
    expect(clip!.reason).toMatch(/^Marked live at 00:00:01/);
  });
});
