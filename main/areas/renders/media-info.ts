/** What a render needs to know of a take's file. */
export interface MediaInfo {
  durationS: number;
  width: number;
  height: number;
  hasAudio: boolean;
}

interface ProbeJson {
  streams?: Array<{ codec_type?: string; width?: number; height?: number }>;
  format?: { duration?: string };
}

/** `ffprobe -show_entries format=duration:stream=codec_type,width,height -of json`; null: no video in it. */
export function readFfprobeJson(json: string): MediaInfo | null {
  let probed: ProbeJson;
  try {
    probed = JSON.parse(json) as ProbeJson;
  } catch {
    return null;
  }
  const streams = probed.streams ?? [];
  const video = streams.find((stream) => stream.codec_type === 'video');
  const durationS = Number(probed.format?.duration);
  if (!video?.width || !video.height || !Number.isFinite(durationS)) return null;
  return {
    durationS,
    width: video.width,
    height: video.height,
    hasAudio: streams.some((stream) => stream.codec_type === 'audio'),
  };
}

/**
 * What `ffmpeg -i <file>` says of its input on stderr, for the npm binary, which ships without
 * ffprobe: `Duration: 00:01:06.02` and the first video stream's `1920x1080`. Null: no video in it.
 */
export function readFfmpegInfo(stderr: string): MediaInfo | null {
  const duration = /Duration: (\d+):(\d{2}):(\d{2}(?:\.\d+)?)/.exec(stderr);
  const video = /Stream #\d+:\d+.*?: Video: .*?, (\d{2,5})x(\d{2,5})[\s,]/.exec(stderr);
  if (!duration || !video) return null;
  return {
    durationS: Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3]),
    width: Number(video[1]),
    height: Number(video[2]),
    hasAudio: /Stream #\d+:\d+.*?: Audio: /.test(stderr),
  };
}
