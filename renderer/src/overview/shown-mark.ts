import { useEffect } from 'react';

/**
 * Name of the User Timing mark the Overview sets once per page load, the first time every panel
 * shows its data (health panels, recorder, held workflows, live feed). Its `startTime` is
 * milliseconds after navigation start, as the browser saw it: the dashboard bench reads it
 * (test/bench/dashboard.ts), and DevTools' Performance panel shows it.
 */
export const OVERVIEW_DATA_MARK = 'studio-bridge:overview-data';

/** Sets `name` once per page load, after the commit in which `shown` first became true. */
export function useShownMark(name: string, shown: boolean): void {
  useEffect(() => {
    if (!shown || typeof performance === 'undefined') return;
    if (performance.getEntriesByName(name, 'mark').length === 0) performance.mark(name);
  }, [name, shown]);
}
