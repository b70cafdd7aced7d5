import { describe, expect, it } from 'vitest';
import { parseTranscript, TranscriptError } from '../../../main/areas/clips/parse.js';
import { parseTimecode } from '../../../main/areas/clips/timecode.js';

const rejects = (text: string) => {
  try {
    parseTranscript(text);
  } catch (error) {
    if (error instanceof TranscriptError) return error;
    throw error;
  }
  throw new Error('expected a TranscriptError');
};

describe('parseTimecode', () => {
  it('reads hh:mm:ss, h:mm:ss, mm:ss and fractions with a comma or a dot', () => {
    expect(parseTimecode('01:02:03')).toBe(3723);
    expect(parseTimecode('1:02:03')).toBe(3723);
    expect(parseTimecode('02:03')).toBe(123);
    expect(parseTimecode('00:00:01,500')).toBe(1.5);
    expect(parseTimecode('00:01.25')).toBe(1.25);
    expect(parseTimecode('75:30')).toBe(4530);
  });
  it('refuses what is not a time', () => {
    expect(parseTimecode('12:61')).toBeNull();
    expect(parseTimecode('1:75:00')).toBeNull();
    expect(parseTimecode('noon')).toBeNull();
  });
});

describe('SRT', () => {
  it('reads cues with their times, joins text lines, strips markup and takes speaker labels', () => {
    const parsed = parseTranscript(
      '1\n00:00:01,000 --> 00:00:04,500\n<i>HOST: Welcome</i> to the\nshow.\n\n2\n00:00:05,000 --> 00:00:08,000\n{\\an8}It&amp;s good [laughter]\n',
    );
    expect(parsed.format).toBe('srt');
    expect(parsed.cues).toEqual([
      { start: 1, end: 4.5, speaker: 'HOST', text: 'Welcome to the show.', reactions: 0 },
      { start: 5, end: 8, speaker: null, text: 'It&s good', reactions: 1 },
    ]);
  });
  it('copes with cues written without blank lines between them, and CRLF line ends', () => {
    const parsed = parseTranscript(
      '1\r\n00:00:01,000 --> 00:00:02,000\r\nOne.\r\n2\r\n00:00:02,000 --> 00:00:03,000\r\nTwo.\r\n',
    );
    expect(parsed.cues.map((c) => c.text)).toEqual(['One.', 'Two.']);
  });
  it('keeps each line of rolling auto-captions once', () => {
    const parsed = parseTranscript(
      '00:00:01,000 --> 00:00:03,000\nso the first thing\n\n00:00:03,000 --> 00:00:05,000\nso the first thing\nwe did was\n\n',
    );
    expect(parsed.cues.map((c) => c.text)).toEqual(['so the first thing', 'we did was']);
  });
  it('skips cues whose end is before their start, with a warning', () => {
    const parsed = parseTranscript(
      '00:00:05,000 --> 00:00:01,000\nBad.\n\n00:00:06,000 --> 00:00:07,000\nGood.\n',
    );
    expect(parsed.cues.map((c) => c.text)).toEqual(['Good.']);
    expect(parsed.warnings[0]).toMatch(/1 caption time lines were invalid/);
  });
});

describe('WebVTT', () => {
  it('reads mm:ss.ttt times, cue settings, voice tags, and ignores the header, NOTE blocks and cue ids', () => {
    const parsed = parseTranscript(
      'WEBVTT - episode 3\nKind: captions\n\nNOTE made by hand\nover two lines\n\nintro\n00:01.000 --> 00:04.000 align:start position:10%\n<v.loud Lena Hoffmann>Good afternoon,</v>\n<v Lena Hoffmann>everyone.</v>\n\n00:04.500 --> 00:06.000\n<v Omar>Thanks (applause)</v>\n',
    );
    expect(parsed.format).toBe('vtt');
    expect(parsed.cues).toEqual([
      { start: 1, end: 4, speaker: 'Lena Hoffmann', text: 'Good afternoon, everyone.', reactions: 0 },
      { start: 4.5, end: 6, speaker: 'Omar', text: 'Thanks', reactions: 1 },
    ]);
  });
});

describe('only real formatting tags are stripped (issue #39.2)', () => {
  const speech = 'costs < 5% of sales and margins > 40%';

  it('SRT: <i> <b> <u> <s> <font …> and {\\…} go; speech between < and > stays', () => {
    const parsed = parseTranscript(
      `1\n00:00:01,000 --> 00:00:04,000\n<i>Our</i> <font color="#ff0">${speech}</font>\n\n2\n00:00:04,000 --> 00:00:06,000\n<B>x</B> <u>is</u> 3 <5 and y>2, <s>not</s> <FONT face="Arial">big</FONT>\n`,
    );
    expect(parsed.cues.map((cue) => cue.text)).toEqual([`Our ${speech}`, 'x is 3 <5 and y>2, not big']);
  });

  it('WebVTT: cue tags (c, i, b, u, ruby, rt, v, lang, timestamps) go; speech and escaped tags stay', () => {
    const parsed = parseTranscript(
      `WEBVTT\n\n00:01.000 --> 00:04.000\n<v Dana>${speech.replace('<', '&lt;').replace('>', '&gt;')}</v>\n\n00:04.000 --> 00:08.000\n<c.yellow>Type</c> <00:05.000><i>&lt;b&gt;</i> for <lang en>bold</lang>, <ruby>漢<rt>kan</rt></ruby>; ${speech}\n`,
    );
    expect(parsed.cues.map((cue) => [cue.speaker, cue.text])).toEqual([
      ['Dana', speech],
      [null, `Type <b> for bold, 漢kan; ${speech}`],
    ]);
  });
});

describe('time-stamped lines', () => {
  it('reads [hh:mm:ss] SPEAKER: text; a line lasts until the next stamp', () => {
    const parsed = parseTranscript('[00:00:01] HOST: Welcome back.\n[00:00:04] GUEST: Thanks.\n');
    expect(parsed.format).toBe('stamped');
    expect(parsed.cues[0]).toEqual({
      start: 1,
      end: 4,
      speaker: 'HOST',
      text: 'Welcome back.',
      reactions: 0,
    });
    expect(parsed.cues[1]).toMatchObject({ start: 4, speaker: 'GUEST', text: 'Thanks.' });
  });
  it('reads bare hh:mm:ss and mm:ss stamps, (mm:ss), dashes, and continuation lines', () => {
    const parsed = parseTranscript(
      '00:01:00 - Jane Doe: First part\nstill her turn.\n(01:10) Second.\n1:20 Third.\n',
    );
    expect(parsed.cues.map((c) => [c.start, c.speaker, c.text])).toEqual([
      [60, 'Jane Doe', 'First part still her turn.'],
      [70, null, 'Second.'],
      [80, null, 'Third.'],
    ]);
  });
  it('reads a speaker before a bracketed stamp, and Otter-style label lines', () => {
    const parsed = parseTranscript(
      'HOST [00:00:02]: Hello there.\nJane Doe  0:09\nThe words follow\non the next lines.\n',
    );
    expect(parsed.cues.map((c) => [c.start, c.speaker, c.text])).toEqual([
      [2, 'HOST', 'Hello there.'],
      [9, 'Jane Doe', 'The words follow on the next lines.'],
    ]);
  });
  it('does not stretch a short line over a long silence', () => {
    const parsed = parseTranscript('[00:00:00] Hi there.\n[00:05:00] Much later.\n');
    expect(parsed.cues[0]!.end).toBeLessThan(10);
  });
  it('warns about lines before the first stamp and stamps that go backwards', () => {
    const parsed = parseTranscript('Episode 4 transcript\n[00:00:10] A.\n[00:00:05] B.\n[00:00:20] C.\n');
    expect(parsed.cues.map((c) => c.start)).toEqual([10, 10, 20]);
    expect(parsed.warnings).toEqual([
      '1 lines before the first time stamp were ignored',
      '1 time stamps went backwards; kept in transcript order',
    ]);
  });
});

describe('plain text', () => {
  it('has no times and keeps speaker labels', () => {
    const parsed = parseTranscript(
      'HOST: So tell me.\n\nGUEST: Well, at 10:30 we met.\nNote: this is not a speaker.\n',
    );
    expect(parsed.format).toBe('plain');
    expect(parsed.cues.map((c) => [c.start, c.speaker, c.text])).toEqual([
      [null, 'HOST', 'So tell me.'],
      [null, 'GUEST', 'Well, at 10:30 we met.'],
      [null, null, 'Note: this is not a speaker.'],
    ]);
  });
});

describe('unreadable transcripts say why', () => {
  it('empty', () => {
    expect(rejects(' \n\t ')).toMatchObject({ rule: 'empty', message: 'is empty (no text)' });
  });
  it('binary', () => {
    expect(rejects('PK\u0003\u0004\u0000\u0000binary')).toMatchObject({
      rule: 'unparseable',
      message: /is not text/,
    });
  });
  it('a caption time line that is not one', () => {
    expect(rejects('1\n00:00:01 -> 00:00:02 --> soon\nHello\n')).toMatchObject({
      rule: 'unparseable',
      message: /line 2 looks like a caption time line/,
    });
  });
  it('WebVTT without cues', () => {
    expect(rejects('WEBVTT\n\nNOTE nothing here\n')).toMatchObject({
      message: /WebVTT captions have no cue/,
    });
  });
  it('stamps without words', () => {
    expect(rejects('[00:00:01]\n[00:00:02] ...\n[00:00:03] [music]\n')).toMatchObject({
      message: 'has no words in the time-stamped lines (only time stamps, numbering or markup)',
    });
  });
});
