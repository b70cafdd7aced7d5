import type { simulatedObsActions } from '../../shared/api/sandbox.js';
import type { SandboxObs } from './obs/index.js';

type SimulatedObsAction = (typeof simulatedObsActions)[number];

export interface SimulatedObsButtons {
  /** Presses a button of the simulated OBS; returns why it cannot (not recording…), or null. */
  press(action: SimulatedObsAction): string | null;
}

/** The simulated OBS's buttons, for the Recorder page in sandbox mode. */
export function simulatedObsButtons(obs: SandboxObs): SimulatedObsButtons {
  return {
    press(action) {
      const { active, paused } = obs.recording;
      if (action === 'drop') obs.dropConnections();
      else if (action === 'start') {
        if (active) return 'OBS is already recording';
        obs.startRecording();
      } else if (!active) return 'OBS is not recording';
      else if (action === 'stop') obs.stopRecording();
      else if (action === 'pause') {
        if (paused) return 'the recording is already paused';
        obs.pauseRecording();
      } else {
        if (!paused) return 'the recording is not paused';
        obs.resumeRecording();
      }
      return null;
    },
  };
}
