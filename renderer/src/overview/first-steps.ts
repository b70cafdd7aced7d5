import type { SettingEntry } from '../../../shared/api/settings.js';

export interface ConnectStep {
  key: 'CRM_URL' | 'POSTSVC_URL' | 'RECORDER_OBS_URL';
  title: string;
  why: string;
  done: boolean;
}

const steps: ReadonlyArray<Omit<ConnectStep, 'done'>> = [
  {
    key: 'CRM_URL',
    title: 'Connect the CRM (EspoCRM)',
    why: 'Its address and API key: guests, episodes and social posts come from it.',
  },
  {
    key: 'POSTSVC_URL',
    title: 'Connect the posting provider',
    why: 'Its address and key: posts go out and numbers come back through it.',
  },
  {
    key: 'RECORDER_OBS_URL',
    title: 'Connect OBS',
    why: 'Its websocket address (OBS 28+): the recorder names each take before it records.',
  },
];

/**
 * A new studio's first step (issue #30.8): what is still to connect. A peer counts as connected
 * once the operator set its address (config file or environment); the sandbox's simulated peers
 * and defaults do not. Null when every one is connected: the step goes away.
 */
export function connectSteps(settings: readonly SettingEntry[]): ConnectStep[] | null {
  const set = (key: string) => {
    const entry = settings.find((e) => e.key === key);
    return entry !== undefined && (entry.source === 'env' || entry.source === 'file');
  };
  const all = steps.map((step) => ({ ...step, done: set(step.key) }));
  return all.every((step) => step.done) ? null : all;
}
