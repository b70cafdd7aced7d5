import anyAscii from 'any-ascii';
import { timecodeOf, type EditTimeline } from './edit-timeline.js';

/**
 * A CMX3600 EDL of the edit timeline (DESIGN §6.6, issue #39): the title line, the `FCM:` line, then
 * per event its line (event, the take's reel, AA/V, B or V, cut, source in/out, record in/out),
 * `* FROM CLIP NAME:` with the take's file name, `* COMMENT:` naming the clip, and a `* LOC:` line per
 * live mark inside it, in source timecode, as OpenTimelineIO's cmx_3600 reader makes markers of them.
 *
 * Text: the file name stays exactly as written (an importer relinks by it); the title, comments and
 * locator names are transliterated to ASCII (any-ascii: "Inés" → "Ines"), since CMX3600 is an ASCII
 * format and not every importer reads UTF-8 there. Locator timecodes are written in non-drop
 * notation of the same frame at every rate: OTIO's reader accepts only `hh:mm:ss:ff` in a LOC line
 * and reads `:` as non-drop (a `;` locator is lost as a marker), so the frame is the same to it.
 */
const TITLE_CHARS = 70;
const COMMENT_CHARS = 72;
const LOCATOR_COLOR = 'RED';

/** One line of text: no line breaks or control characters. */
const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim(); // eslint-disable-line no-control-regex
const ascii = (text: string) => oneLine(anyAscii(oneLine(text)));

export function buildEdl(timeline: EditTimeline): string {
  const { fps, dropFrame } = timeline.rate;
  const tc = (frames: number) => timecodeOf(frames, fps);
  const reel = timeline.reel.padEnd(8, ' ');
  const channels = timeline.audio.code.padEnd(5, ' ');
  const lines = [
    `TITLE: ${ascii(timeline.title).slice(0, TITLE_CHARS)}`,
    `FCM: ${dropFrame ? 'DROP FRAME' : 'NON-DROP FRAME'}`,
  ];
  timeline.events.forEach((event, i) => {
    // Columns of CMX3600: event 1–3, reel 6–13, channels 15–19, edit 21–24, transition 26–28, then
    // source in 30–40, source out 42–52, record in 54–64, record out 66–76.
    lines.push(
      '',
      `${String(i + 1).padStart(3, '0')}  ${reel} ${channels} C        ${tc(event.sourceIn)} ${tc(event.sourceOut)} ${tc(event.recordIn)} ${tc(event.recordOut)}`,
    );
    if (timeline.take) lines.push(`* FROM CLIP NAME: ${oneLine(timeline.take.fileName)}`);
    lines.push(`* COMMENT: ${ascii(`CLIP ${event.n} - ${event.name}`).slice(0, COMMENT_CHARS)}`);
    for (const marker of event.markers) {
      lines.push(
        `* LOC: ${timecodeOf(marker.frame, fps, false)} ${LOCATOR_COLOR.padEnd(7, ' ')} ${ascii(marker.name)}`,
      );
    }
  });
  return `${lines.join('\n')}\n`;
}
