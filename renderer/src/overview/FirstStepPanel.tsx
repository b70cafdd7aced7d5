import { Panel } from '../components/Panel.js';
import { useSettings } from '../settings/api.js';
import { connectSteps } from './first-steps.js';

/** Overview's first step for a new studio (issue #30.8): what to connect, each linking to Settings. */
export function FirstStepPanel() {
  const settings = useSettings();
  // Loading or failed: the rest of the Overview says so; this step waits for the settings.
  if (!settings.data) return null;
  const steps = connectSteps(settings.data.settings);
  if (!steps) return null;
  const left = steps.filter((step) => !step.done).length;
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
                <strong>{step.title}</strong>: connected.
              </span>
            ) : (
              <span>
                <a href="#/settings">
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
