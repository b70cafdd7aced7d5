import { useHealth } from '../api/transport/health.js';
import { Panel } from '../components/Panel.js';
import { useSettings } from '../settings/api.js';
import { connectSteps, stepHref, type ConnectStep } from './first-steps.js';

/**
 * Overview's first step for a new studio (issue #30.8): what to connect, each linking straight to
 * its peer's section of Settings (issue #41.1); OBS counts as connected once the recorder is.
 */
export function FirstStepPanel() {
  const settings = useSettings();
  const obs = useHealth().data?.peers?.obs;
  // Loading or failed: the rest of the Overview says so; this step waits for the settings.
  if (!settings.data) return null;
  const obsConnected = obs?.configured === true && obs.state === 'reachable';
  const steps = connectSteps(settings.data.settings, obsConnected);
  if (!steps) return null;
  const left = steps.filter((step) => !step.done).length;
  const obsSetting = settings.data.settings.find((entry) => entry.key === 'RECORDER_OBS_URL');
  const simulatedObs = settings.data.sandbox && obsSetting?.source === 'default';
  return (
    <Panel title="First step: connect your studio" testId="first-step">
      <p className="small muted">
        {settings.data.sandbox
          ? 'The bridge is running on simulated peers (the sandbox), so you can try everything without accounts. '
          : ''}
        {left === 1 ? 'One thing is' : `${left} things are`} still to connect; each is set in Settings and
        takes effect after a restart.
      </p>
      <ol className="first-steps">
        {steps.map((step) => (
          <li
            key={step.key}
            className={step.done ? 'first-step-done' : ''}
            data-testid={`first-step-${step.key}`}
          >
            <span aria-hidden="true">{step.done ? '✓' : '○'}</span>{' '}
            {step.done ? (
              <span>
                <a href={stepHref(step)}>
                  <strong>{step.name}</strong>
                </a>
                : {doneWords(step, obsConnected, simulatedObs)}
              </span>
            ) : (
              <span>
                <a href={stepHref(step)}>
                  <strong>{step.title}</strong>
                </a>{' '}
                <span className="muted">{step.why}</span>
              </span>
            )}
          </li>
        ))}
      </ol>
    </Panel>
  );
}

/** "connected", and for OBS which one, or that its address is set but it is not connected now. */
function doneWords(step: ConnectStep, obsConnected: boolean, simulatedObs: boolean): string {
  if (step.key !== 'RECORDER_OBS_URL') return 'connected.';
  if (!obsConnected) return 'its address is set; OBS is not connected now (the Recorder page says why).';
  return simulatedObs
    ? 'connected, to the sandbox’s simulated OBS; set your own OBS’s address to use it.'
    : 'connected.';
}
