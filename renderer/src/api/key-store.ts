import { desktop } from './desktop.js';
import { takeKeyFromFragment } from './fragment-key.js';
import { API_KEY_STORAGE_KEY } from './storage-keys.js';

/**
 * The bridge API key, as an external store (React reads it with useSyncExternalStore). The desktop
 * window gets it from the preload; a browser on the LAN pastes it once and keeps it in localStorage.
 */
export type KeySource = 'desktop' | 'browser';

export interface KeyState {
  key: string | null;
  source: KeySource | null;
  /** The bridge answered 401 to this key: the dashboard asks for another one. */
  rejected: boolean;
}

function readStoredKey(): string | null {
  try {
    return window.localStorage.getItem(API_KEY_STORAGE_KEY);
  } catch {
    return null;
  }
}

function initialState(): KeyState {
  if (desktop) return { key: desktop.apiKey, source: 'desktop', rejected: false };
  // The start-up link's key is kept like a typed one; a wrong one gets the key screen (401).
  const fromLink = takeKeyFromFragment();
  if (fromLink) {
    storeKey(fromLink);
    return { key: fromLink, source: 'browser', rejected: false };
  }
  const stored = readStoredKey();
  return stored
    ? { key: stored, source: 'browser', rejected: false }
    : { key: null, source: null, rejected: false };
}

function storeKey(key: string): void {
  try {
    window.localStorage.setItem(API_KEY_STORAGE_KEY, key);
  } catch {
    // Storage disabled: the key still works until the page is reloaded.
  }
}

let state: KeyState = initialState();
const listeners = new Set<() => void>();

function update(next: KeyState): void {
  state = next;
  for (const listener of listeners) listener();
}

export const keyStore = {
  get: (): KeyState => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** A key the operator typed (and the bridge accepted): remembered in this browser. */
  set(key: string): void {
    storeKey(key);
    update({ key, source: 'browser', rejected: false });
  },
  /** Forget the typed key; the desktop window falls back to the preload's key. */
  clear(): void {
    try {
      window.localStorage.removeItem(API_KEY_STORAGE_KEY);
    } catch {
      // nothing stored
    }
    update(
      desktop
        ? { key: desktop.apiKey, source: 'desktop', rejected: false }
        : { key: null, source: null, rejected: false },
    );
  },
  /** Called on a 401 for the key in force (not for a key being tried on the key screen). */
  reject(key: string): void {
    if (state.key === key && !state.rejected) update({ ...state, rejected: true });
  },
};
