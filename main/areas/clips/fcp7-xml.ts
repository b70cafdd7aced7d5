import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import { timecodeOf, type EditTimeline, type TimelineEvent } from './edit-timeline.js';
import { fcpPathUrl } from './file-url.js';

/**
 * The edit timeline as a Final Cut Pro 7 XML (xmeml version 4, issue #39.5), which Premiere Pro and
 * DaVinci Resolve import: one sequence starting at 01:00:00:00, a video track and one audio track per
 * channel (two for stereo), each clipitem trimmed on the take's file (`file://localhost/…` pathurl,
 * defined once and then referred to by id), its markers in source frames. `ntsc` is TRUE at the
 * 1001 rates (23.976, 29.97, 59.94), whose timebase is the whole rate above them.
 */
const AUDIO_SAMPLE_RATE = 48_000;
const AUDIO_DEPTH = 16;
const FILE_ID = 'file-1';

export function buildFcp7Xml(timeline: EditTimeline): string {
  const { rate, take } = timeline;
  const size = take?.video ?? { width: 1920, height: 1080 };
  const duration = (timeline.events.at(-1)?.recordOut ?? timeline.startFrame) - timeline.startFrame;
  const mediaFrames = take?.durationS == null ? null : Math.round(take.durationS * rate.framesPerSecond);
  const addRate = (parent: XMLBuilder) =>
    parent
      .ele('rate')
      .ele('timebase')
      .txt(String(rate.timebase))
      .up()
      .ele('ntsc')
      .txt(rate.ntsc ? 'TRUE' : 'FALSE');
  const addTimecode = (parent: XMLBuilder, frame: number) => {
    const timecode = parent.ele('timecode');
    addRate(timecode);
    timecode
      .ele('string')
      .txt(timecodeOf(frame, rate.fps))
      .up()
      .ele('frame')
      .txt(String(frame))
      .up()
      .ele('displayformat')
      .txt(rate.dropFrame ? 'DF' : 'NDF');
  };
  const addVideoSamples = (parent: XMLBuilder) => {
    const samples = parent.ele('samplecharacteristics');
    addRate(samples);
    samples
      .ele('width')
      .txt(String(size.width))
      .up()
      .ele('height')
      .txt(String(size.height))
      .up()
      .ele('pixelaspectratio')
      .txt('square');
  };
  let fileWritten = false;
  const addFile = (parent: XMLBuilder) => {
    const file = parent.ele('file', { id: FILE_ID });
    if (fileWritten) return;
    fileWritten = true;
    file.ele('name').txt(take?.fileName ?? timeline.title);
    if (take?.filePath) file.ele('pathurl').txt(fcpPathUrl(take.filePath));
    addRate(file);
    if (mediaFrames !== null) file.ele('duration').txt(String(mediaFrames));
    addTimecode(file, 0);
    const media = file.ele('media');
    addVideoSamples(media.ele('video'));
    if (timeline.audio.channels > 0) {
      const audio = media.ele('audio');
      audio
        .ele('samplecharacteristics')
        .ele('depth')
        .txt(String(AUDIO_DEPTH))
        .up()
        .ele('samplerate')
        .txt(String(AUDIO_SAMPLE_RATE));
      audio.ele('channelcount').txt(String(timeline.audio.channels));
    }
  };
  const addClipitem = (
    track: XMLBuilder,
    event: TimelineEvent,
    index: number,
    kind: 'video' | 'audio',
    channel: number,
  ) => {
    const item = track.ele('clipitem', { id: `clipitem-${kind}${channel}-${index + 1}` });
    item.ele('name').txt(`${event.n}. ${event.name}`);
    item.ele('enabled').txt('TRUE');
    item.ele('duration').txt(String(mediaFrames ?? event.sourceOut));
    addRate(item);
    item.ele('start').txt(String(event.recordIn - timeline.startFrame));
    item.ele('end').txt(String(event.recordOut - timeline.startFrame));
    item.ele('in').txt(String(event.sourceIn));
    item.ele('out').txt(String(event.sourceOut));
    addFile(item);
    const source = item.ele('sourcetrack').ele('mediatype').txt(kind).up();
    if (kind === 'audio') source.ele('trackindex').txt(String(channel));
    if (kind === 'video') {
      for (const marker of event.markers) {
        item
          .ele('marker')
          .ele('name')
          .txt(marker.name)
          .up()
          .ele('comment')
          .up()
          .ele('in')
          .txt(String(marker.frame))
          .up()
          .ele('out')
          .txt('-1');
      }
    }
  };

  const document = create({ version: '1.0', encoding: 'UTF-8' })
    .dtd({ name: 'xmeml' })
    .ele('xmeml', { version: '4' });
  const sequence = document.ele('sequence', { id: 'sequence-1' });
  sequence.ele('name').txt(timeline.title);
  sequence.ele('duration').txt(String(duration));
  addRate(sequence);
  addTimecode(sequence, timeline.startFrame);
  const media = sequence.ele('media');
  const video = media.ele('video');
  addVideoSamples(video.ele('format'));
  const videoTrack = video.ele('track');
  timeline.events.forEach((event, i) => addClipitem(videoTrack, event, i, 'video', 1));
  const audio = media.ele('audio');
  audio.ele('numOutputChannels').txt(String(Math.max(1, timeline.audio.channels)));
  for (let channel = 1; channel <= timeline.audio.channels; channel++) {
    const track = audio.ele('track');
    timeline.events.forEach((event, i) => addClipitem(track, event, i, 'audio', channel));
  }
  return `${document.end({ prettyPrint: true })}\n`;
}
