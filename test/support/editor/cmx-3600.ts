import Timecode from 'smpte-timecode';

/**
 * Reads a CMX3600 EDL by the rules of OpenTimelineIO's cmx_3600 reader (otio-cmx3600-adapter,
 * cmx_3600_reader.py), ported for the tests (OTIO itself is a Python package not installable here):
 * an event line's fields, its channels to tracks by OTIO's CHANNEL_MAP (`AA/V` is V, A1, A2; `B` is
 * V and A1), `* FROM CLIP NAME:` as the clip's name, and `* LOC:` lines by OTIO's own pattern
 * `(\d\d:\d\d:\d\d:\d\d)\s+(\w*)(\s+|$)(.*)` (so a locator written `hh:mm:ss;ff` is not a marker to
 * OTIO), each a marker on the clip in source time. Timecode is read by its separator, as OTIO does
 * (`;` drop-frame, `:` not), whatever the FCM line says.
 */
export const CHANNEL_MAP: Record<string, string[]> = {
  A: ['A1'],
  AA: ['A1', 'A2'],
  B: ['V', 'A1'],
  'A2/V': ['V', 'A2'],
  'AA/V': ['V', 'A1', 'A2'],
};
const LOC = /^(\d\d:\d\d:\d\d:\d\d)\s+(\w*)(\s+|$)(.*)/;

export interface EdlMarker {
  frame: number;
  color: string;
  name: string;
}
export interface EdlEvent {
  number: string;
  reel: string;
  channels: string;
  tracks: string[];
  sourceIn: number;
  sourceOut: number;
  recordIn: number;
  recordOut: number;
  clipName: string | null;
  markers: EdlMarker[];
  comments: string[];
}

export function framesOf(timecode: string, rate: [number, number] | number): number {
  const drop = timecode.includes(';');
  return new Timecode(timecode.replace(';', drop ? ';' : ':'), rate, drop).frameCount;
}

export function readEdl(
  text: string,
  rate: [number, number] | number,
): { title: string | null; events: EdlEvent[] } {
  let title: string | null = null;
  const events: EdlEvent[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('TITLE:')) title = line.slice(6).trim();
    else if (line.startsWith('FCM')) continue;
    else if (/^\d/.test(line)) {
      const fields = line.split(/\s+/);
      if (fields.length !== 8)
        throw new Error(`incorrect number of fields [${fields.length}] in form statement: ${line}`);
      const [number, reel, channels, , sIn, sOut, rIn, rOut] = fields as [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
      ];
      events.push({
        number,
        reel,
        channels,
        tracks: CHANNEL_MAP[channels] ?? [channels],
        sourceIn: framesOf(sIn, rate),
        sourceOut: framesOf(sOut, rate),
        recordIn: framesOf(rIn, rate),
        recordOut: framesOf(rOut, rate),
        clipName: null,
        markers: [],
        comments: [],
      });
    } else if (line.startsWith('*')) {
      const event = events.at(-1);
      if (!event) throw new Error(`a comment before any event: ${line}`);
      const body = line.replace(/^\*\s*/, '');
      const clipName = /^FROM CLIP NAME:?\s*(.*)$/.exec(body);
      const loc = /^LOC:?\s*(.*)$/.exec(body);
      if (clipName) event.clipName = clipName[1]!.trim();
      else if (loc && LOC.test(loc[1]!.trim())) {
        const [, timecode, color, , name] = LOC.exec(loc[1]!.trim())!;
        event.markers.push({ frame: framesOf(timecode!, rate), color: color!, name: name!.trim() });
      } else event.comments.push(body);
    } else throw new Error(`Unknown event type: ${line}`);
  }
  return { title, events };
}
