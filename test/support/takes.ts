import type { RecorderTake } from '../../shared/api/recorder.js';
import type { SandboxObs } from '../../main/sandbox/index.js';
import { eventually, type TestBridge } from './bridge.js';

/**
 * Records a take named `filename` on the simulated OBS, `seconds` long on the bridge's clock
 * (`advance` moves it), with each mark made `at` seconds in. The simulated OBS writes no file:
 * `writeFile` makes it at the path OBS names, once it names it (a file there before would make
 * the recorder pick the next name, as it does with a real OBS), and OBS reports the take stopped
 * once it is written. Answers the take as GET /api/recorder/takes lists it, stopped.
 */
export async function recordTake(
  bridge: TestBridge,
  obs: SandboxObs,
  advance: (seconds: number) => void,
  take: {
    filename: string;
    seconds: number;
    marks: readonly { label: string; at: number }[];
    writeFile?: (file: string) => void;
  },
): Promise<RecorderTake> {
  await eventually(async () => (await bridge.call('GET', '/api/recorder/status')).body.connection.connected);
  await bridge.call('POST', '/api/recorder/filename', { body: { filename: take.filename } });
  await eventually(async () => (await bridge.call('GET', '/api/recorder/filename')).body.state === 'applied');
  obs.startRecording();
  await eventually(async () => (await bridge.call('GET', '/api/recorder/status')).body.recording.active);
  let elapsed = 0;
  for (const { label, at } of take.marks) {
    advance(at - elapsed);
    elapsed = at;
    await bridge.call('POST', '/api/recorder/marks', { body: { label } });
  }
  advance(take.seconds - elapsed);
  const path = obs.stopRecording({ finish: 'later' });
  take.writeFile?.(path);
  obs.finishStopping();
  return eventually(async () => {
    const list = (await bridge.call('GET', '/api/recorder/takes')).body.takes as RecorderTake[];
    return list.find((listed) => listed.filePath === path && listed.stoppedAt !== null) ?? null;
  });
}
