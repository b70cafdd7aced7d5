import { describe, expect, it } from 'vitest';
import { edlFrameRates, frameRateFractions, type EdlFrameRate } from '../../../shared/frame-rates.js';
import { editTimeline, type TimelineInput } from '../../../main/areas/clips/edit-timeline.js';
import { buildEdl } from '../../../main/areas/clips/edl.js';
import { buildFcp7Xml } from '../../../main/areas/clips/fcp7-xml.js';
import { fcpPathUrl, fileUrl } from '../../../main/areas/clips/file-url.js';
import { buildOtio } from '../../../main/areas/clips/otio.js';
import { readEdl } from '../../support/editor/cmx-3600.js';
import { timeline as otioTimeline } from '../../support/editor/otio-schema.js';
import { readXmeml } from '../../support/editor/xmeml.js';

const rateOf = (fps: EdlFrameRate): [number, number] => [
  frameRateFractions[fps].numerator,
  frameRateFractions[fps].denominator,
];

const input = (over: Partial<TimelineInput> = {}): TimelineInput => ({
  title: '20261201_Episode_52_T02',
  fps: '25',
  order: 'rank',
  take: {
    name: '20261201_Episode_52_T02',
    fileName: '20261201_Episode_52_T02.mkv',
    filePath: '/home/studio/Videos/20261201_Episode_52_T02.mkv',
    reel: '26120102',
    durationS: 1800,
    audioChannels: 2,
    video: { width: 1920, height: 1080 },
    marks: [
      { id: 1, offsetS: 760.5, label: 'the tray' },
      { id: 2, offsetS: 20, label: 'Café «opening»' },
      { id: 3, offsetS: 1200, label: null },
    ],
  },
  clips: [
    { n: 1, startTime: 754.2, endTime: 801.96, name: 'We raised our prices by forty percent' },
    { n: 2, startTime: 10, endTime: 35.5, name: 'pricing, churn' },
  ],
  ...over,
});

describe('file URLs of the take (OTIO target_url, FCP7 pathurl)', () => {
  it('percent-encodes spaces and non-ASCII; keeps a Windows drive; FCP7 names localhost', () => {
    expect(fileUrl('/home/studio/Videos/Ep 52 – Café.mkv')).toBe(
      'file:///home/studio/Videos/Ep%2052%20%E2%80%93%20Caf%C3%A9.mkv',
    );
    expect(fcpPathUrl('/home/studio/Videos/Ep 52 – Café.mkv')).toBe(
      'file://localhost/home/studio/Videos/Ep%2052%20%E2%80%93%20Caf%C3%A9.mkv',
    );
    expect(fileUrl('C:\\Users\\Dana\\Videos\\Ep 52 #1.mkv')).toBe(
      'file:///C:/Users/Dana/Videos/Ep%2052%20%231.mkv',
    );
    expect(fcpPathUrl('C:\\Users\\Dana\\Videos\\Ep 52 #1.mkv')).toBe(
      'file://localhost/C:/Users/Dana/Videos/Ep%2052%20%231.mkv',
    );
    expect(fcpPathUrl('\\\\nas\\media\\take 1.mkv')).toBe('file://nas/media/take%201.mkv');
    for (const path of ['/home/studio/Videos/Ep 52 – Café.mkv', 'C:\\Users\\Dana\\Videos\\Ep 52 #1.mkv']) {
      const url = new URL(fcpPathUrl(path));
      expect(
        decodeURIComponent(url.pathname)
          .replace(/^\/(?=[A-Z]:)/, '')
          .replace(/\//g, path.includes('\\') ? '\\' : '/'),
      ).toBe(path);
    }
  });
});

describe('the edit timeline all three formats are written from', () => {
  it("uses the take's reel, its audio (AA/V stereo, B mono, V none), and each mark inside its clip", () => {
    const stereo = editTimeline(input());
    expect(stereo.reel).toBe('26120102');
    expect(stereo.audio).toEqual({ channels: 2, code: 'AA/V', assumed: false });
    expect(stereo.events.map((event) => event.markers.map((m) => m.name))).toEqual([
      ['the tray'],
      ['Café «opening»'],
    ]);
    const take = input().take!;
    expect(editTimeline(input({ take: { ...take, audioChannels: 1 } })).audio.code).toBe('B');
    expect(editTimeline(input({ take: { ...take, audioChannels: 0 } })).audio.code).toBe('V');
    const unknown = editTimeline(input({ take: { ...take, audioChannels: null } }));
    expect(unknown.audio).toEqual({ channels: 2, code: 'AA/V', assumed: true });
    expect(unknown.warnings.join(' ')).toContain('stereo');
  });

  it('without a take: reel AX, no file, and a warning saying so', () => {
    const none = editTimeline(input({ take: null }));
    expect(none.reel).toBe('AX');
    expect(none.warnings[0]).toMatch(/^no take: .*reel AX/);
  });

  it('lays events end to end from 01:00:00:00, by rank or in source order', () => {
    const ranked = editTimeline(input());
    const bySource = editTimeline(input({ order: 'source' }));
    expect(ranked.events.map((e) => e.n)).toEqual([1, 2]);
    expect(bySource.events.map((e) => e.n)).toEqual([2, 1]);
    for (const timeline of [ranked, bySource]) {
      expect(timeline.events[0]!.recordIn).toBe(timeline.startFrame);
      expect(timeline.events[1]!.recordIn).toBe(timeline.events[0]!.recordOut);
    }
  });

  it('warns when a clip cuts past the end of its take, naming both lengths', () => {
    const short = editTimeline(input({ take: { ...input().take!, durationS: 3.4 } }));
    expect(short.warnings.join(' ')).toMatch(/3\.4 s/);
    expect(short.warnings.join(' ')).toMatch(/801\.96 s|0:13:21/);
  });
});

describe('CMX3600 EDL (DESIGN §6.6, issue #39.1, #39.4)', () => {
  const edl = buildEdl(editTimeline(input()));
  const lines = edl.split('\n');

  it('has the title, FCM, events with reel and AA/V, the clip named, and live marks as LOC lines', () => {
    expect(lines.slice(0, 5)).toEqual([
      'TITLE: 20261201_Episode_52_T02',
      'FCM: NON-DROP FRAME',
      '',
      '001  26120102 AA/V  C        00:12:34:05 00:13:21:24 01:00:00:00 01:00:47:19',
      '* FROM CLIP NAME: 20261201_Episode_52_T02.mkv',
    ]);
    expect(lines).toContain('* COMMENT: CLIP 1 - We raised our prices by forty percent');
    expect(lines).toContain('* LOC: 00:12:40:13 RED     the tray');
    expect(lines).toContain('* LOC: 00:00:20:00 RED     Cafe <<opening>>');
  });

  it('puts every field of an event in its CMX3600 columns', () => {
    for (const event of lines.filter((line) => /^\d{3} /.test(line))) {
      expect(event).toHaveLength(76);
      expect(event.slice(5, 13)).toBe('26120102');
      expect(event.slice(14, 19)).toBe('AA/V ');
      expect(event.slice(20, 24)).toBe('C   ');
    }
  });

  it('reads back by OpenTimelineIO cmx_3600 rules at all eight rates: tracks, times, markers in their clips', () => {
    for (const fps of edlFrameRates) {
      const timeline = editTimeline(input({ fps }));
      const read = readEdl(buildEdl(timeline), rateOf(fps));
      expect(read.events).toHaveLength(2);
      read.events.forEach((event, i) => {
        const expected = timeline.events[i]!;
        expect(event.tracks).toEqual(['V', 'A1', 'A2']);
        expect(event.reel).toBe('26120102');
        expect([event.sourceIn, event.sourceOut, event.recordIn, event.recordOut]).toEqual([
          expected.sourceIn,
          expected.sourceOut,
          expected.recordIn,
          expected.recordOut,
        ]);
        expect(event.markers.map((m) => m.frame)).toEqual(expected.markers.map((m) => m.frame));
        for (const marker of event.markers) {
          expect(marker.frame).toBeGreaterThanOrEqual(event.sourceIn);
          expect(marker.frame).toBeLessThan(event.sourceOut);
        }
      });
    }
  });

  it('keeps TITLE, comments and locator names ASCII (transliterated); the clip name is the file name as it is', () => {
    const take = { ...input().take!, name: 'Entrevista Inés', fileName: 'Entrevista Inés.mkv' };
    const text = buildEdl(editTimeline(input({ title: 'Entrevista Inés', take })));
    expect(text).toContain('TITLE: Entrevista Ines\n');
    expect(text).toContain('* FROM CLIP NAME: Entrevista Inés.mkv\n');
    expect(
      text
        .split('\n')
        .filter((line) => !line.startsWith('* FROM CLIP NAME'))
        .join('\n'),
    ).toMatch(/^[\x20-\x7e\n]*$/);
  });
});

describe('OpenTimelineIO (.otio, Timeline.1)', () => {
  it("is OTIO's serialized schema: video and audio tracks, clips with the take's URL, markers in source time", () => {
    for (const fps of edlFrameRates) {
      const timeline = editTimeline(input({ fps }));
      const otio = otioTimeline.parse(JSON.parse(buildOtio(timeline)));
      expect(otio.tracks.children.map((track) => [track.name, track.kind])).toEqual([
        ['V', 'Video'],
        ['A1', 'Audio'],
        ['A2', 'Audio'],
      ]);
      expect(otio.global_start_time).toEqual({
        OTIO_SCHEMA: 'RationalTime.1',
        rate: expect.any(Number),
        value: timeline.startFrame,
      });
      for (const track of otio.tracks.children) {
        track.children.forEach((item, i) => {
          const expected = timeline.events[i]!;
          if (item.OTIO_SCHEMA !== 'Clip.2') throw new Error('a gap in a contiguous timeline');
          expect(item.source_range!.start_time.value).toBe(expected.sourceIn);
          expect(item.source_range!.duration.value).toBe(expected.sourceOut - expected.sourceIn);
          expect(item.source_range!.start_time.rate).toBeCloseTo(
            frameRateFractions[fps].numerator / frameRateFractions[fps].denominator,
            9,
          );
          const reference = item.media_references[item.active_media_reference_key]!;
          expect(reference.target_url).toBe('file:///home/studio/Videos/20261201_Episode_52_T02.mkv');
          if (track.kind === 'Video') {
            expect(item.markers.map((m) => m.marked_range.start_time.value)).toEqual(
              expected.markers.map((m) => m.frame),
            );
          }
        });
      }
    }
  });
});

describe('Final Cut Pro 7 XML (xmeml)', () => {
  it('is xmeml: sequence rate, ntsc TRUE at the 1001 rates, video + two audio tracks, pathurl, markers', () => {
    for (const fps of edlFrameRates) {
      const timeline = editTimeline(input({ fps }));
      const { sequence } = readXmeml(buildFcp7Xml(timeline)).xmeml;
      const ntsc = fps === '23.976' || fps === '29.97' || fps === '59.94';
      expect(sequence.rate).toEqual({
        timebase: Math.round(frameRateFractions[fps].numerator / frameRateFractions[fps].denominator),
        ntsc: ntsc ? 'TRUE' : 'FALSE',
      });
      expect(sequence.timecode.frame).toBe(timeline.startFrame);
      expect(sequence.timecode.displayformat).toBe(fps === '29.97' || fps === '59.94' ? 'DF' : 'NDF');
      expect(sequence.media.audio!.track).toHaveLength(2);
      const video = sequence.media.video.track[0]!.clipitem;
      video.forEach((item, i) => {
        const expected = timeline.events[i]!;
        expect([item.in, item.out, item.start, item.end]).toEqual([
          expected.sourceIn,
          expected.sourceOut,
          expected.recordIn - timeline.startFrame,
          expected.recordOut - timeline.startFrame,
        ]);
        expect(item.marker.map((m) => m.in)).toEqual(expected.markers.map((m) => m.frame));
        expect(String(item.name)).toBe(`${expected.n}. ${expected.name}`);
      });
      expect(video[0]!.file.pathurl).toBe('file://localhost/home/studio/Videos/20261201_Episode_52_T02.mkv');
      expect(video[0]!.file.media!.audio!.channelcount).toBe(2);
    }
  });
});
