/** EBU R128 loudness of a clip (first pass) and the one linear gain that brings it to the target (second). */
export interface LoudnessMeasure {
  /** Integrated loudness, LUFS; null when FFmpeg gave no summary (no audio). */
  integratedLufs: number | null;
  /** True peak, dBFS; null for silence (-inf) or no summary. */
  truePeakDbfs: number | null;
}

/** What the platforms' players normalise speech to (their own targets are −13 to −16). */
export const TARGET_LUFS = -14;
/** A linear gain that would lift the true peak above this would clip: it stops there instead. */
const PEAK_CEILING_DBTP = -1;
/** Below this, the clip is silence (ebur128's gate floor is −70): nothing to bring up. */
const SILENCE_LUFS = -60;

/** Reads the Summary that `-af ebur128=peak=true` writes at the end of FFmpeg's stderr. */
export function readEbur128Summary(stderr: string): LoudnessMeasure {
  const at = stderr.lastIndexOf('Summary:');
  if (at < 0) return { integratedLufs: null, truePeakDbfs: null };
  const summary = stderr.slice(at);
  const integrated = /I:\s+(-?[\d.]+) LUFS/.exec(summary);
  const peak = /Peak:\s+(-?[\d.]+|-inf) dBFS/.exec(summary);
  return {
    integratedLufs: integrated ? Number(integrated[1]) : null,
    truePeakDbfs: peak && peak[1] !== '-inf' ? Number(peak[1]) : null,
  };
}

export interface Gain {
  gainDb: number;
  /** The loudness the clip will have; null when it has no measurable speech. */
  expectedLufs: number | null;
  /** Why the target is not met: the peaks would clip, or there is only silence. */
  heldBy: 'peak' | 'silence' | null;
}

const tenth = (value: number) => Math.round(value * 10) / 10;

/** The gain (dB) to the target, as far as the true peak allows: one gain, so the dynamics are kept. */
export function linearGain(measure: LoudnessMeasure, target = TARGET_LUFS): Gain {
  const { integratedLufs, truePeakDbfs } = measure;
  if (integratedLufs === null || integratedLufs <= SILENCE_LUFS)
    return { gainDb: 0, expectedLufs: null, heldBy: 'silence' };
  const wanted = target - integratedLufs;
  const room = truePeakDbfs === null ? Infinity : PEAK_CEILING_DBTP - truePeakDbfs;
  if (wanted <= room) return { gainDb: tenth(wanted), expectedLufs: target, heldBy: null };
  return { gainDb: tenth(room), expectedLufs: tenth(integratedLufs + room), heldBy: 'peak' };
}
