import { desktop } from '../transport/desktop.js';
import { takeKeyFromFragment } from './fragment-key.js';
import { API_KEY_STORAGE_KEY } from '../storage-keys.js';

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
  /** The key came from a start link (`#key=…`): a refusal says so (KeyScreen.tsx). */
  fromLink: boolean;
}

function readStoredKey(): string | null {
  try {
    return window.localStorage.getItem(API_KEY_STORAGE_KEY);
  } catch {
    return null;
  }
}

function initialState(): KeyState {
  if (desktop) return { key: desktop.apiKey, source: 'desktop', rejected: false, fromLink: false };
  const fromLink = takeKeyFromFragment();
  if (fromLink) return keptFromLink(fromLink);
  const stored = readStoredKey();
  return stored
    ? { key: stored, source: 'browser', rejected: false, fromLink: false }
    : { key: null, source: null, rejected: false, fromLink: false };
}

/** The start link's key is kept like a typed one; a wrong one gets the key screen (401), in words. */
function keptFromLink(key: string): KeyState {
  storeKey(key);
  return { key, source: 'browser', rejected: false, fromLink: true };
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
    update({ key, source: 'browser', rejected: false, fromLink: false });
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
        ? { key: desktop.apiKey, source: 'desktop', rejected: false, fromLink: false }
        : { key: null, source: null, rejected: false, fromLink: false },
    );
  },
  /** Called on a 401 for the key in force (not for a key being tried on the key screen). */
  reject(key: string): void {
    if (state.key === key && !state.rejected) update({ ...state, rejected: true });
  },
};

/**
 * The start link pasted into a tab that is already open (on the key screen or any page) changes
 * only the fragment: no reload, so the key is taken here, at once, and dropped from the address.
 */
function takePastedLink(): void {
  const key = takeKeyFromFragment();
  if (key === null) return;
  update(keptFromLink(key));
}

if (typeof window !== 'undefined') window.addEventListener('hashchange', takePastedLink);
