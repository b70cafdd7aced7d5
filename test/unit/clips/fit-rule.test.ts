import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeTranscript } from '../../../main/areas/clips/analyze.js';
import { checkClip } from '../../../main/areas/clips/clip-fit.js';
import { clipNameQuoted, fitClip, misfitMessage } from '../../../shared/clip-fit.js';

const interview = readFileSync(new URL('../../fixtures/transcripts/interview.txt', import.meta.url), 'utf8');

describe('one fit rule for suggestion, draft and warning (issue #28.2)', () => {
  it('a suggestion fits by length only: its ratio is not known yet', () => {
    expect(fitClip({ durationS: 71, ratios: [], targets: null }).fitsPlatforms).toEqual([
      'Photogram Reels',
      'Shortvideo',
      'Microblog',
      'Socialnet Reels',
    ]);
    expect(fitClip({ durationS: 95, ratios: [], targets: null }).fitsPlatforms).toEqual([
      'Shortvideo',
      'Microblog',
    ]);
    for (const clip of analyzeTranscript(interview, { maxClips: 5 }).suggestedClips) {
      expect(clip.fitsPlatforms).toEqual(
        fitClip({ durationS: clip.duration, ratios: [], targets: null }).fitsPlatforms,
      );
    }
  });

  it('the draft, its ratio now known, is judged by the same rule and says so in the same words', () => {
    const suggestion = fitClip({ durationS: 71, ratios: [], targets: null });
    // What the CRM holds once the draft exists: a portrait clip (EspoCRM's default) for those targets.
    const draft = checkClip({
      duration: 71,
      aspectRatio: 'Portrait 9:16',
      targetPlatforms: suggestion.fitsPlatforms,
    });
    expect(draft.problems.map((p) => p.message)).toEqual([
      'Microblog: prefers 16:9 or 1:1, the clip exists in 9:16 only',
    ]);
    expect(fitClip({ durationS: 71, ratios: ['9:16'], targets: suggestion.fitsPlatforms }).problems).toEqual(
      draft.problems,
    );
  });

  it('quotes a clip name once, even when the name carries its own quotes', () => {
    const problems = checkClip({
      duration: 71,
      aspectRatio: 'Portrait 9:16',
      targetPlatforms: ['Microblog'],
    }).problems;
    const name = '"The truth is we raised prices…" (Episode 12, 4:05–5:16)';
    expect(misfitMessage(name, problems)).toBe(
      'Clip "The truth is we raised prices…" (Episode 12, 4:05–5:16) does not fit: Microblog: prefers 16:9 or 1:1, the clip exists in 9:16 only',
    );
    expect(misfitMessage(name, problems)).not.toContain('""');
    expect(clipNameQuoted('Promo cut')).toBe('"Promo cut"');
  });
});

describe('reasons in words (issue #28.3)', () => {
  const clips = analyzeTranscript(interview, { maxClips: 8 }).suggestedClips;

  it('says the feeling in words, never the AFINN score, which stays in the details', () => {
    for (const clip of clips) expect(clip.reason).not.toMatch(/AFINN|[+-]\d+\b(?!\s*%)/);
    const feeling = clips.filter((clip) => /feeling: \w+/.test(clip.reason));
    expect(feeling.length).toBeGreaterThan(0);
    for (const clip of feeling) {
      const emotion = clip.signals.find((s) => s.name === 'emotion')!;
      expect(emotion.evidence[0]).toMatch(/^AFINN [+-]?\d+$/);
      expect(emotion.evidence[0]).toBe(`AFINN ${clip.sentiment.score > 0 ? '+' : ''}${clip.sentiment.score}`);
    }
  });
});
