/**
 * Types for smpte-timecode 1.3 (the package ships none): only what main/areas/clips/edl.ts uses.
 * A frame rate near 24, 30 or 60 that is not whole means 24000/1001, 30000/1001, 60000/1001.
 */
declare module 'smpte-timecode' {
  type FrameRate = number | [numerator: number, denominator: number];
  interface Timecode {
    readonly frameCount: number;
    readonly hours: number;
    readonly minutes: number;
    readonly seconds: number;
    readonly frames: number;
    readonly dropFrame: boolean;
    /** `HH:MM:SS:FF`, or `HH:MM:SS;FF` drop-frame. */
    toString(): string;
  }
  interface TimecodeConstructor {
    /** From a frame count or a `HH:MM:SS:FF` / `HH:MM:SS;FF` string; throws on a timecode that cannot be. */
    new (timecode: number | string, frameRate?: FrameRate, dropFrame?: boolean): Timecode;
    (timecode: number | string, frameRate?: FrameRate, dropFrame?: boolean): Timecode;
  }
  const Timecode: TimecodeConstructor;
  export default Timecode;
}
