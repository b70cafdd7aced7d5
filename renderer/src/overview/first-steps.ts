import type { SettingEntry, TestablePeer } from '../../../shared/api/settings.js';

export interface ConnectStep {
  key: 'CRM_URL' | 'POSTSVC_URL' | 'RECORDER_OBS_URL';
  /** Its section of Settings: `#/settings?section=crm`. */
  section: TestablePeer;
  title: string;
  /** Its name once connected. */
  name: string;
  why: string;
  done: boolean;
}

const steps: ReadonlyArray<Omit<ConnectStep, 'done'>> = [
  {
    key: 'CRM_URL',
    section: 'crm',
    title: 'Connect the CRM (EspoCRM)',
    name: 'CRM (EspoCRM)',
    why: 'Its address and API key: guests, episodes and social posts come from it.',
  },
  {
    key: 'POSTSVC_URL',
    section: 'postsvc',
    title: 'Connect the posting provider',
    name: 'Posting provider',
    why: 'Its address and key: posts go out and numbers come back through it.',
  },
  {
    key: 'RECORDER_OBS_URL',
    section: 'obs',
    title: 'Connect OBS',
    name: 'OBS',
    why: 'Its websocket address (OBS 28+): the recorder names each take before it records.',
  },
];

/**
 * A new studio's first step (issue #30.8): what is still to connect. A peer counts as connected
 * once the operator set its address (config file or environment); the sandbox's simulated peers
 * and defaults do not — but OBS does once the recorder is connected to one (issue #41.1: the
 * Recorder page said connected while this step said to connect it). Null when every one is
 * connected: the step goes away.
 */
export function connectSteps(settings: readonly SettingEntry[], obsConnected: boolean): ConnectStep[] | null {
  const set = (key: string) => {
    const entry = settings.find((e) => e.key === key);
    return entry !== undefined && (entry.source === 'env' || entry.source === 'file');
  };
  const all = steps.map((step) => ({
    ...step,
    done: set(step.key) || (step.key === 'RECORDER_OBS_URL' && obsConnected),
  }));
  return all.every((step) => step.done) ? null : all;
}

/** Where a step's link goes: its peer's section of Settings, scrolled to and focused. */
export const stepHref = (step: ConnectStep): string => `#/settings?section=${step.section}`;
