import { useSyncExternalStore } from 'react';
import type { ActivityEvent } from '../../../../shared/activity-events.js';
import { addUnread, failureOf, markSeen } from './failure-alerts.js';
import type { Failure, UnreadFailures } from './failure-alerts.js';
import { NOTIFY_STORAGE_KEY } from '../storage-keys.js';

/**
 * The unread failures of this window and the "Notify me" choice, as an external store. Unread
 * counts live in memory: they count what happened while this window was open (the Activity
 * page lists the history).
 */
export interface FailureState {
  unread: UnreadFailures;
  /** The operator asked for notifications and the browser allowed them. */
  notify: boolean;
  /** Notifications are blocked by the browser (the operator has to allow them in its settings). */
  blocked: boolean;
}

function notificationApi(): typeof Notification | null {
  return typeof window !== 'undefined' && 'Notification' in window ? window.Notification : null;
}

function storedChoice(): boolean {
  try {
    return window.localStorage.getItem(NOTIFY_STORAGE_KEY) === 'on';
  } catch {
    return false;
  }
}

function storeChoice(on: boolean): void {
  try {
    window.localStorage.setItem(NOTIFY_STORAGE_KEY, on ? 'on' : 'off');
  } catch {
    // Storage disabled: the choice holds until the page is reloaded.
  }
}

function initialState(): FailureState {
  const api = notificationApi();
  return {
    unread: {},
    notify: api !== null && api.permission === 'granted' && storedChoice(),
    blocked: api === null || api.permission === 'denied',
  };
}

let state: FailureState = initialState();
const listeners = new Set<() => void>();

function update(change: Partial<FailureState>): void {
  state = { ...state, ...change };
  for (const listener of listeners) listener();
}

function showNotification(failure: Failure): void {
  const api = notificationApi();
  if (!state.notify || api === null || api.permission !== 'granted') return;
  const notification = new api(failure.title, { body: failure.body, tag: `studio-bridge-${failure.page}` });
  // A click brings the dashboard forward on the page where the failure is dealt with.
  notification.onclick = () => {
    window.focus();
    window.location.hash = `#${failure.page}`;
  };
}

export const failureStore = {
  get: (): FailureState => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Every live event passes here; a failure is counted and notified. */
  receive(event: ActivityEvent): void {
    const failure = failureOf(event);
    if (!failure) return;
    update({ unread: addUnread(state.unread, failure.page) });
    showNotification(failure);
  },
  /** The operator opened `path`. */
  seen(path: string): void {
    const unread = markSeen(state.unread, path);
    if (unread !== state.unread) update({ unread });
  },
  /** Called from the "Notify me" button: the browser asks for permission only from a user gesture. */
  async toggleNotify(): Promise<void> {
    if (state.notify) {
      storeChoice(false);
      update({ notify: false });
      return;
    }
    const api = notificationApi();
    if (api === null) return;
    const permission = api.permission === 'granted' ? 'granted' : await api.requestPermission();
    storeChoice(permission === 'granted');
    update({ notify: permission === 'granted', blocked: permission === 'denied' });
  },
};

export function useFailures(): FailureState {
  return useSyncExternalStore(failureStore.subscribe, failureStore.get);
}
