import type { EditTimeline, TimelineEvent } from './edit-timeline.js';
import { fileUrl } from './file-url.js';

/**
 * The edit timeline as OpenTimelineIO's JSON (`.otio`, issue #39.5), in its serialized schemas
 * (Timeline.1, Stack.1, Track.1, Clip.2, ExternalReference.1, Marker.2, RationalTime.1,
 * TimeRange.1): a video track V and the audio tracks A1 (and A2 for stereo) as OTIO's own EDL reader
 * names them, each clip trimmed on the take's file (its `file://` URL), the live marks as markers in
 * the clip's source time. Rates are exact: 29.97 is 30000/1001.
 */
const rationalTime = (value: number, rate: number) => ({ OTIO_SCHEMA: 'RationalTime.1', rate, value });
const timeRange = (start: number, duration: number, rate: number) => ({
  OTIO_SCHEMA: 'TimeRange.1',
  start_time: rationalTime(start, rate),
  duration: rationalTime(duration, rate),
});

export function buildOtio(timeline: EditTimeline): string {
  const rate = timeline.rate.framesPerSecond;
  const { take } = timeline;
  const mediaFrames = take?.durationS == null ? null : Math.round(take.durationS * rate);
  const clip = (event: TimelineEvent, withMarkers: boolean) => ({
    OTIO_SCHEMA: 'Clip.2',
    name: `${event.n}. ${event.name}`,
    metadata: {
      cmx_3600: { reel: timeline.reel },
      studio_bridge: { suggestion: event.n, startTime: event.startTime, endTime: event.endTime },
    },
    source_range: timeRange(event.sourceIn, event.sourceOut - event.sourceIn, rate),
    effects: [],
    markers: withMarkers
      ? event.markers.map((marker) => ({
          OTIO_SCHEMA: 'Marker.2',
          name: marker.name,
          metadata: {},
          color: 'RED',
          marked_range: timeRange(marker.frame, 0, rate),
          comment: '',
        }))
      : [],
    enabled: true,
    media_references: {
      DEFAULT_MEDIA: {
        OTIO_SCHEMA: 'ExternalReference.1',
        name: take?.fileName ?? '',
        metadata: {},
        available_range: mediaFrames === null ? null : timeRange(0, mediaFrames, rate),
        available_image_bounds: null,
        target_url: take?.filePath ? fileUrl(take.filePath) : '',
      },
    },
    active_media_reference_key: 'DEFAULT_MEDIA',
  });
  const track = (name: string, kind: 'Video' | 'Audio') => ({
    OTIO_SCHEMA: 'Track.1',
    name,
    metadata: {},
    source_range: null,
    effects: [],
    markers: [],
    enabled: true,
    kind,
    // The marks are markers once, on the picture.
    children: timeline.events.map((event) => clip(event, kind === 'Video')),
  });
  const audioTracks = ['A1', 'A2'].slice(0, timeline.audio.channels).map((name) => track(name, 'Audio'));
  const document = {
    OTIO_SCHEMA: 'Timeline.1',
    name: timeline.title,
    metadata: { studio_bridge: { reel: timeline.reel, fps: timeline.rate.fps, warnings: timeline.warnings } },
    global_start_time: rationalTime(timeline.startFrame, rate),
    tracks: {
      OTIO_SCHEMA: 'Stack.1',
      name: 'tracks',
      metadata: {},
      source_range: null,
      effects: [],
      markers: [],
      enabled: true,
      children: [track('V', 'Video'), ...audioTracks],
    },
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
