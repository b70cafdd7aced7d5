import { useLayoutEffect } from 'react';

/**
 * Marks (performance.mark) when a production's thread has been drawn, for `npm run bench
 * productions`: the time from its answer to its page (issue #42.5). Costs nothing otherwise.
 */
export function useDrawnMark(answer: object): void {
  useLayoutEffect(() => {
    performance.mark('production-drawn');
  }, [answer]);
}
