import { useSyncExternalStore } from 'react';
import { keyStore } from './key-store.js';
import type { KeyState } from './key-store.js';

/** The key in force and whether the bridge refused it; re-renders when it changes. */
export function useApiKey(): KeyState {
  return useSyncExternalStore(keyStore.subscribe, keyStore.get);
}
