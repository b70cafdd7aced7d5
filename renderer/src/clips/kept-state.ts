import { useEffect, useState } from 'react';

/**
 * State the Clips page keeps for the browser tab (issue #44.3: leaving the page wiped the transcript):
 * sessionStorage, so a return to the page finds it as left; a value too large to keep stays in memory.
 */
export function useKeptState<T>(name: string, initial: T): [T, (value: T) => void] {
  const key = `studioBridge.clips.${name}`;
  const [value, setValue] = useState<T>(() => {
    try {
      const stored = window.sessionStorage.getItem(key);
      return stored === null ? initial : (JSON.parse(stored) as T);
    } catch {
      return initial;
    }
  });
  useEffect(() => {
    try {
      window.sessionStorage.setItem(key, JSON.stringify(value));
    } catch {
      // Over the browser's quota (a very long transcript): kept while the page is open only.
    }
  }, [key, value]);
  return [value, setValue];
}
