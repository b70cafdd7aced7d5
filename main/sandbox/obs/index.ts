import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  ALL_EVENTS,
  authenticationString,
  CloseCode,
  decodeMessage,
  encodeMessage,
  OpCode,
  OUTPUTS_INTENT,
  pickSubprotocol,
  RequestStatus,
  subprotocols,
  type Encoding,
  type Message,
} from './protocol.js';
import { RecordOutput, timecode } from './recording.js';
import { writeSimulatedTake, type TakeFont } from './take-file.js';
import type { HasWorld } from '../common/world.js';

/**
 * A simulated OBS Studio (DESIGN §5.5, §8): a real obs-websocket 5 server on loopback, spoken to
 * by the unchanged obs-websocket-js client, whose "recording" writes nothing unless given FFmpeg
 * (then a small real file, take-file.ts). It keeps a profile's
 * parameters (Output/FilenameFormatting, Output/OverwriteIfExists), records, pauses and stops on
 * command, sends RecordStateChanged, answers GetRecordStatus from its clock, can require a password
 * (and refuse a wrong one as OBS does: close 4009 "Authentication failed."), and drop its clients;
 * GetVideoSettings answers its Settings → Video as OBS 29 does (30/1 fps by default).
 */
export interface SandboxObsOptions {
  /** Required from clients when set (Tools → WebSocket Server Settings → Enable Authentication). */
  password?: string;
  /** The clock of the record output (outputDuration, paused spans, file names). */
  now?: () => Date;
  /** Default: a free one. */
  port?: number;
  /** Where "recordings" are said to be written. */
  recordingDir?: string;
  /** Settings → Video (default: 30 fps, 1920×1080, as a new OBS 29 profile). */
  video?: Partial<VideoSettings>;
  /**
   * The encoder's delay (default 170 ms, x264 ultrafast as measured on OBS 29): outputDuration lags
   * the file by it, and STOPPED follows STOPPING by it (real time) while OBS finishes the file.
   */
  encoderDelayMs?: number;
  /**
   * Write a small real file for each take with this FFmpeg (the sandbox bridge's), its timecode in
   * this font; none by default.
   */
  takeFiles?: { ffmpeg: string; font: TakeFont };
}

/** Settings → Video, as GetVideoSettings answers it. */
export interface VideoSettings {
  fpsNumerator: number;
  fpsDenominator: number;
  baseWidth: number;
  baseHeight: number;
  outputWidth: number;
  outputHeight: number;
}

export interface ObsRefusal {
  code: number;
  comment: string;
}

export interface SandboxObs extends HasWorld {
  readonly url: string;
  readonly port: number;
  readonly password: string | null;
  /** A profile parameter as OBS holds it (null: not set). */
  parameter(category: string, name: string): string | null;
  readonly recording: { active: boolean; paused: boolean; durationMs: number; path: string | null };
  /** The operator presses Start Recording; returns the file being written. */
  startRecording(): string;
  /**
   * STOPPING now, STOPPED once the file is finished: after the encoder's delay, or at
   * finishStopping() with `finish: 'later'`. Returns the file written.
   */
  stopRecording(options?: { finish?: 'later' }): string;
  /** Sends the STOPPED of a stop made with `finish: 'later'`. */
  finishStopping(): void;
  pauseRecording(): void;
  resumeRecording(): void;
  /** Identified clients connected now. */
  clients(): number;
  /** Closes every client's socket at once, as OBS quitting does (clients see code 1001). */
  dropConnections(): void;
  /** true: stop listening (OBS closed); false: listen again on the same port. */
  refuseConnections(on: boolean): Promise<void>;
  /** The operator changes a profile setting (Settings → Output…). */
  setParameter(category: string, name: string, value: string): void;
  /** SetProfileParameter requests received so far (OBS rewrites its profile file at each). */
  profileWrites(): number;
  /** Answers requests of this type `ms` late (real time). */
  delayRequests(requestType: string, ms: number): void;
  /** The operator changes Settings → Video (what GetVideoSettings answers from then on). */
  setVideoSettings(settings: Partial<VideoSettings>): void;
  /** The next `count` requests of this type fail with OBS's status code and comment. */
  refuseRequests(requestType: string, refusal: ObsRefusal, count?: number): void;
  stop(): Promise<void>;
}

interface Session {
  socket: WebSocket;
  encoding: Encoding;
  identified: boolean;
  subscriptions: number;
  salt: string;
  challenge: string;
}

const OBS_VERSION = '31.0.2';
const OBS_WEBSOCKET_VERSION = '5.5.4';
const FILENAME_DEFAULT = '%CCYY-%MM-%DD %hh-%mm-%ss';

export async function startSandboxObs(options: SandboxObsOptions = {}): Promise<SandboxObs> {
  const now = options.now ?? (() => new Date());
  const password = options.password ?? null;
  const recordingDir = options.recordingDir ?? '/home/studio/Videos';
  const encoderDelayMs = options.encoderDelayMs ?? 170;
  const output = new RecordOutput(now, encoderDelayMs);
  let profileWrites = 0;
  const delays = new Map<string, number>();
  /** A stop whose STOPPED is not sent yet. */
  let finishing: { path: string; timer: NodeJS.Timeout | undefined } | null = null;
  const profile = new Map<string, string>([
    [key('Output', 'FilenameFormatting'), FILENAME_DEFAULT],
    // OBS's own default is false; the simulated studio once turned it on, so the bridge's switching
    // it off (DESIGN §5.5) is seen.
    [key('Output', 'OverwriteIfExists'), 'true'],
    [key('SimpleOutput', 'RecFormat2'), 'mkv'],
  ]);
  const written = new Set<string>();
  let video: VideoSettings = {
    fpsNumerator: 30,
    fpsDenominator: 1,
    baseWidth: 1920,
    baseHeight: 1080,
    outputWidth: 1920,
    outputHeight: 1080,
    ...options.video,
  };
  const refusals = new Map<string, { refusal: ObsRefusal; left: number }>();
  const sessions = new Set<Session>();

  const server: Server = createServer((_req, res) => {
    res.writeHead(426, { 'content-type': 'text/plain' }).end('obs-websocket speaks WebSocket only\n');
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const wss = new WebSocketServer({
    server,
    handleProtocols: (offered) => pickSubprotocol(offered),
  });

  wss.on('connection', (socket) => {
    const session: Session = {
      socket,
      encoding: socket.protocol === subprotocols.msgpack ? 'msgpack' : 'json',
      identified: false,
      subscriptions: ALL_EVENTS,
      salt: randomBytes(32).toString('base64'),
      challenge: randomBytes(32).toString('base64'),
    };
    sessions.add(session);
    socket.on('close', () => sessions.delete(session));
    socket.on('error', () => sessions.delete(session));
    socket.on('message', (data, isBinary) => {
      const message = decodeMessage(toBuffer(data), isBinary, session.encoding);
      if (!message) {
        socket.close(CloseCode.MessageDecodeError, 'Unable to decode message.');
        return;
      }
      handle(session, message);
    });
    send(session, {
      op: OpCode.Hello,
      d: {
        obsWebSocketVersion: OBS_WEBSOCKET_VERSION,
        rpcVersion: 1,
        ...(password === null
          ? {}
          : { authentication: { challenge: session.challenge, salt: session.salt } }),
      },
    });
  });

  function send(session: Session, message: Message): void {
    if (session.socket.readyState === session.socket.OPEN)
      session.socket.send(encodeMessage(message, session.encoding));
  }

  function handle(session: Session, { op, d }: Message): void {
    const { socket } = session;
    if (op === OpCode.Identify) {
      if (session.identified) {
        socket.close(
          CloseCode.AlreadyIdentified,
          'You are already Identified with the obs-websocket server.',
        );
        return;
      }
      if (password !== null) {
        if (!('authentication' in d)) {
          socket.close(
            CloseCode.AuthenticationFailed,
            "Your payload's data is missing an `authentication` string, however authentication is required.",
          );
          return;
        }
        if (typeof d.authentication !== 'string') {
          socket.close(CloseCode.AuthenticationFailed, 'Your `authentication` field is not a string.');
          return;
        }
        if (!sameText(d.authentication, authenticationString(password, session.salt, session.challenge))) {
          socket.close(CloseCode.AuthenticationFailed, 'Authentication failed.');
          return;
        }
      }
      if (typeof d.rpcVersion !== 'number') {
        socket.close(CloseCode.MissingDataField, "Your payload's data is missing an `rpcVersion`.");
        return;
      }
      if (d.rpcVersion !== 1) {
        socket.close(
          CloseCode.UnsupportedRpcVersion,
          'Your requested RPC version is not supported by this server.',
        );
        return;
      }
      if (typeof d.eventSubscriptions === 'number') session.subscriptions = d.eventSubscriptions;
      session.identified = true;
      send(session, { op: OpCode.Identified, d: { negotiatedRpcVersion: 1 } });
      return;
    }
    if (!session.identified) {
      socket.close(CloseCode.NotIdentified, 'You must identify before sending other messages.');
      return;
    }
    if (op === OpCode.Reidentify) {
      if (typeof d.eventSubscriptions === 'number') session.subscriptions = d.eventSubscriptions;
      send(session, { op: OpCode.Identified, d: { negotiatedRpcVersion: 1 } });
      return;
    }
    if (op === OpCode.Request) {
      if (!('requestId' in d)) {
        socket.close(CloseCode.MissingDataField, 'Your payload data is missing a `requestId`.');
        return;
      }
      if (typeof d.requestType !== 'string') {
        socket.close(CloseCode.MissingDataField, "Your payload's data is missing an `requestType`.");
        return;
      }
      const requestData = typeof d.requestData === 'object' && d.requestData !== null ? d.requestData : {};
      const result = request(d.requestType, requestData as Record<string, unknown>);
      const answer = () => answerRequest(session, d.requestType as string, d.requestId, result);
      const delay = delays.get(d.requestType);
      if (delay === undefined) answer();
      else setTimeout(answer, delay);
      return;
    }
    socket.close(CloseCode.UnknownOpCode, `Unknown OpCode: ${op}`);
  }

  function answerRequest(session: Session, requestType: string, requestId: unknown, result: Result): void {
    send(session, {
      op: OpCode.RequestResponse,
      d: {
        requestType,
        requestId,
        requestStatus: {
          result: result.code === RequestStatus.Success,
          code: result.code,
          ...(result.comment ? { comment: result.comment } : {}),
        },
        ...(result.data ? { responseData: result.data } : {}),
      },
    });
    result.after?.();
  }

  interface Result {
    code: number;
    comment?: string;
    data?: Record<string, unknown>;
    /** Events that follow the answer (OBS answers StartRecord, then reports the output starting). */
    after?: () => void;
  }

  function request(type: string, data: Record<string, unknown>): Result {
    const refused = refusals.get(type);
    if (refused) {
      if (--refused.left <= 0) refusals.delete(type);
      return { code: refused.refusal.code, comment: refused.refusal.comment };
    }
    switch (type) {
      case 'GetVersion':
        return ok({
          obsVersion: OBS_VERSION,
          obsWebSocketVersion: OBS_WEBSOCKET_VERSION,
          rpcVersion: 1,
          availableRequests: Object.keys(handlers),
          supportedImageFormats: ['png', 'jpg'],
          platform: 'linux',
          platformDescription: 'Studio Bridge sandbox (simulated OBS)',
        });
      default: {
        const handler = handlers[type];
        return handler
          ? handler(data)
          : { code: RequestStatus.UnknownRequestType, comment: 'Your request type is not valid.' };
      }
    }
  }

  const handlers: Record<string, (data: Record<string, unknown>) => Result> = {
    GetProfileParameter(data) {
      const missing = missingText(data, 'parameterCategory', 'parameterName');
      if (missing) return missing;
      const name = key(String(data.parameterCategory), String(data.parameterName));
      return ok({
        parameterValue: profile.get(name) ?? null,
        defaultParameterValue: name === key('Output', 'FilenameFormatting') ? FILENAME_DEFAULT : null,
      });
    },
    SetProfileParameter(data) {
      const missing = missingText(data, 'parameterCategory', 'parameterName');
      if (missing) return missing;
      const name = key(String(data.parameterCategory), String(data.parameterName));
      profileWrites++;
      if (data.parameterValue === null) profile.delete(name);
      else if (typeof data.parameterValue === 'string') profile.set(name, data.parameterValue);
      else
        return {
          code: RequestStatus.InvalidRequestFieldType,
          comment: 'The field value of `parameterValue` must be a string.',
        };
      return ok();
    },
    GetRecordDirectory() {
      return ok({ recordDirectory: recordingDir });
    },
    GetVideoSettings() {
      return ok({ ...video });
    },
    GetRecordStatus() {
      const durationMs = output.durationMs();
      return ok({
        outputActive: output.active,
        outputPaused: output.paused,
        outputTimecode: timecode(durationMs),
        outputDuration: durationMs,
        outputBytes: output.active ? Math.round(durationMs * 750) : 0,
      });
    },
    StartRecord() {
      if (output.active) return { code: RequestStatus.OutputRunning };
      return { ...ok(), after: () => void controls.startRecording() };
    },
    StopRecord() {
      if (!output.active) return { code: RequestStatus.OutputNotRunning };
      const path = output.path;
      return { ...ok({ outputPath: path }), after: () => void controls.stopRecording() };
    },
    ToggleRecord() {
      const active = !output.active;
      return {
        ...ok({ outputActive: active }),
        after: () => void (active ? controls.startRecording() : controls.stopRecording()),
      };
    },
    PauseRecord() {
      if (!output.active) return { code: RequestStatus.OutputNotRunning };
      if (output.paused) return { code: RequestStatus.OutputPaused };
      return { ...ok(), after: () => controls.pauseRecording() };
    },
    ResumeRecord() {
      if (!output.active) return { code: RequestStatus.OutputNotRunning };
      if (!output.paused) return { code: RequestStatus.OutputNotPaused };
      return { ...ok(), after: () => controls.resumeRecording() };
    },
  };

  function recordStateChanged(outputActive: boolean, outputState: string, outputPath: string | null): void {
    const message: Message = {
      op: OpCode.Event,
      d: {
        eventType: 'RecordStateChanged',
        eventIntent: OUTPUTS_INTENT,
        eventData: { outputActive, outputState, outputPath },
      },
    };
    for (const session of sessions) {
      if (session.identified && (session.subscriptions & OUTPUTS_INTENT) !== 0) send(session, message);
    }
  }

  /**
   * The file OBS would write for the current FilenameFormatting, as OBS 29 did: spaces become `_`
   * with FileNameWithoutSpace; with OverwriteIfExists off a name whose file exists (written here
   * or found in the folder) gets " (2)", or "_2" without spaces.
   */
  function nextRecordingPath(): string {
    const format = profile.get(key('Output', 'FilenameFormatting')) ?? FILENAME_DEFAULT;
    const extension = profile.get(key('SimpleOutput', 'RecFormat2')) ?? 'mkv';
    const noSpace = profile.get(key('SimpleOutput', 'FileNameWithoutSpace')) === 'true';
    const name = expandSpecifiers(format, now());
    const stem = `${recordingDir}/${noSpace ? name.replaceAll(' ', '_') : name}`;
    let path = `${stem}.${extension}`;
    if (profile.get(key('Output', 'OverwriteIfExists')) !== 'true') {
      for (let n = 2; written.has(path) || existsSync(path); n++)
        path = noSpace ? `${stem}_${n}.${extension}` : `${stem} (${n}).${extension}`;
    }
    return path;
  }

  function finishStopping(): void {
    if (!finishing) return;
    clearTimeout(finishing.timer);
    const { path } = finishing;
    finishing = null;
    recordStateChanged(false, 'OBS_WEBSOCKET_OUTPUT_STOPPED', path);
  }

  const controls = {
    startRecording(): string {
      if (output.active) throw new Error('the simulated OBS is already recording');
      finishStopping();
      const path = nextRecordingPath();
      output.start(path);
      recordStateChanged(false, 'OBS_WEBSOCKET_OUTPUT_STARTING', null);
      recordStateChanged(true, 'OBS_WEBSOCKET_OUTPUT_STARTED', path);
      return path;
    },
    stopRecording(stopOptions: { finish?: 'later' } = {}): string {
      if (!output.active) throw new Error('the simulated OBS is not recording');
      recordStateChanged(false, 'OBS_WEBSOCKET_OUTPUT_STOPPING', null);
      const seconds = output.fileMs() / 1000;
      const path = output.stop()!;
      written.add(path);
      // As OBS: STOPPED once the file is finished (the encoder's delay, or the simulated take's file written).
      finishing = { path, timer: undefined };
      if (options.takeFiles)
        void writeSimulatedTake(options.takeFiles.ffmpeg, options.takeFiles.font, path, seconds).then(
          finishStopping,
        );
      else if (stopOptions.finish !== 'later') finishing.timer = setTimeout(finishStopping, encoderDelayMs);
      return path;
    },
    finishStopping,
    pauseRecording(): void {
      if (!output.active || output.paused) throw new Error('the simulated OBS is not recording unpaused');
      output.pause();
      recordStateChanged(true, 'OBS_WEBSOCKET_OUTPUT_PAUSED', null);
    },
    resumeRecording(): void {
      if (!output.paused) throw new Error('the simulated OBS is not paused');
      output.resume();
      recordStateChanged(true, 'OBS_WEBSOCKET_OUTPUT_RESUMED', null);
    },
  };

  const port = await listen(server, options.port ?? 0);
  let closed = false;
  const shutDown = async (code: number, reason: string): Promise<void> => {
    for (const session of sessions) session.socket.close(code, reason);
    if (!server.listening) return;
    const done = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await done;
  };

  return {
    url: `ws://127.0.0.1:${port}`,
    port,
    password,
    // The profile and the files "written" (so a name is never reused); a recording does not
    // survive OBS quitting, so the record output is the runtime's.
    world: { profile, written },
    parameter: (category, name) => profile.get(key(category, name)) ?? null,
    get recording() {
      return {
        active: output.active,
        paused: output.paused,
        durationMs: output.durationMs(),
        path: output.path,
      };
    },
    ...controls,
    clients: () => [...sessions].filter((session) => session.identified).length,
    dropConnections() {
      for (const session of sessions) session.socket.close(1001, 'Server stopping.');
    },
    async refuseConnections(on) {
      if (closed) return;
      if (on) await shutDown(1001, 'Server stopping.');
      else if (!server.listening) await listen(server, port);
    },
    setParameter(category, name, value) {
      profile.set(key(category, name), value);
    },
    profileWrites: () => profileWrites,
    delayRequests(requestType, ms) {
      delays.set(requestType, ms);
    },
    setVideoSettings(settings) {
      video = { ...video, ...settings };
    },
    refuseRequests(requestType, refusal, count = 1) {
      refusals.set(requestType, { refusal, left: count });
    },
    async stop() {
      closed = true;
      clearTimeout(finishing?.timer);
      await shutDown(1001, 'Server stopping.');
      wss.close();
    },
  };
}

const key = (category: string, name: string) => `${category}\u0000${name}`;

function ok(data?: Record<string, unknown>): { code: number; data?: Record<string, unknown> } {
  return data ? { code: RequestStatus.Success, data } : { code: RequestStatus.Success };
}

function missingText(data: Record<string, unknown>, ...fields: string[]) {
  for (const field of fields) {
    if (!(field in data)) {
      return {
        code: RequestStatus.MissingRequestField,
        comment: `Your request is missing the \`${field}\` field.`,
      };
    }
    if (typeof data[field] !== 'string') {
      return {
        code: RequestStatus.InvalidRequestFieldType,
        comment: `The field value of \`${field}\` must be a string.`,
      };
    }
  }
  return null;
}

/** OBS's date specifiers (the ones the default name uses), from the local time. */
function expandSpecifiers(format: string, at: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  const values: Record<string, string> = {
    CCYY: String(at.getFullYear()),
    YY: pad(at.getFullYear() % 100),
    MM: pad(at.getMonth() + 1),
    DD: pad(at.getDate()),
    hh: pad(at.getHours()),
    mm: pad(at.getMinutes()),
    ss: pad(at.getSeconds()),
  };
  return format.replace(/%(CCYY|YY|MM|DD|hh|mm|ss)/g, (_, specifier: string) => values[specifier]!);
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function toBuffer(data: Buffer | ArrayBuffer | Buffer[]): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.isBuffer(data) ? data : Buffer.from(data);
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
