import { useHealth } from '../api/transport/health.js';
import { formatDateTime, formatRelative, useNow } from '../format.js';
import { useCollectionRuns } from './queries.js';

/**
 * Content metrics are sent to the bridge (POST /analytics/content-ingest, spec §4.2), never
 * fetched: the panel says when they last arrived and that Collect now does not refresh them (issue
 * #41.4), in words, without the API path (the words-in-forms decision).
 */
export function ContentSource() {
  const runs = useCollectionRuns();
  const sandbox = useHealth().data?.sandbox === true;
  const now = useNow(60_000);
  if (!runs.data) return null;
  const at = runs.data.contentReceived;
  return (
    <p className="small muted content-source" data-testid="content-source">
      {at ? (
        <>
          Last received <time title={formatDateTime(at)}>{formatRelative(at, now)}</time>; Collect now does
          not fetch these.
        </>
      ) : (
        <>
          None received yet{sandbox ? ' (the figures below are the sandbox’s demo data)' : ''}: the studio’s
          automation (n8n) sends each episode’s numbers to the bridge once it is published. Collect now does
          not fetch these.
        </>
      )}
    </p>
  );
}
