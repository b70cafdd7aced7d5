import type { RenderRecord } from '../../../shared/api/renders.js';
import { useRenderProgress } from '../clips/renders-api.js';
import { LocalTime } from '../components/LocalTime.js';
import { Panel } from '../components/Panel.js';
import { StatusPill } from '../components/StatusPill.js';
import type { Thread } from './api.js';
import { stageTone } from './stage-tone.js';

/** Transcript analyses, the CRM's clips (Draft, Ready, Published) and their renders. */
export function ThreadClips({ thread }: { thread: Thread }) {
  // A Draft Clip made on the Clips page opens its card there; one made in the CRM has none.
  const cards = new Map(
    thread.analyses.flatMap((analysis) =>
      analysis.drafts.map((draft) => [draft.clipId, { analysisId: analysis.id, n: draft.n }] as const),
    ),
  );
  return (
    <Panel title="Clips" testId="thread-clips" actions={<a href="#/clips">Clips →</a>}>
      <h3 className="subheading">Transcript analyses</h3>
      {thread.analyses.length === 0 ? (
        <p className="muted small">
          No transcript of this production was analysed (Clips page, kept 30 days).
        </p>
      ) : (
        <ul className="plain-list thread-items">
          {thread.analyses.map((analysis) => (
            <li key={analysis.id}>
              <a href={`#/clips?analysis=${encodeURIComponent(analysis.id)}`}>
                {analysis.suggestions} suggestions
              </a>
              <span className="small muted">
                {' '}
                from {analysis.takeName ?? 'a transcript without a take'} ·{' '}
                <LocalTime iso={analysis.createdAt} utc={false} />
              </span>
              {analysis.firstHook ? <div className="small ellipsis">“{analysis.firstHook}”</div> : null}
            </li>
          ))}
        </ul>
      )}
      <h3 className="subheading">Clips in the CRM</h3>
      {thread.clips.length === 0 ? (
        <p className="muted small">No Clip record names this production.</p>
      ) : (
        <ul className="plain-list thread-items">
          {thread.clips.map((clip) => (
            <li key={clip.id}>
              <ClipName clip={clip} card={cards.get(clip.id)} />{' '}
              {clip.status ? <StatusPill tone={stageTone(clip.status)}>{clip.status}</StatusPill> : null}
              {clip.hookQuote ? <div className="small ellipsis">“{clip.hookQuote}”</div> : null}
            </li>
          ))}
        </ul>
      )}
      {thread.renders.length > 0 ? (
        <>
          <h3 className="subheading">Renders</h3>
          <ul className="plain-list thread-items">
            {thread.renders.map((render) => (
              <RenderRow key={render.id} render={render} />
            ))}
          </ul>
        </>
      ) : null}
    </Panel>
  );
}

function ClipName({
  clip,
  card,
}: {
  clip: Thread['clips'][number];
  card: { analysisId: string; n: number } | undefined;
}) {
  const name = clip.name ?? clip.id;
  if (!card) {
    return (
      <>
        <span className="thread-clip-name">{name}</span>{' '}
        <span className="small muted">made in the CRM, not from an analysis here</span>
      </>
    );
  }
  return <a href={`#/clips?analysis=${encodeURIComponent(card.analysisId)}&clip=${card.n}`}>{name}</a>;
}

function RenderRow({ render }: { render: RenderRecord }) {
  const progress = useRenderProgress(render);
  return (
    <li>
      <span className="mono small">
        {render.take.name} #{render.n}
      </span>{' '}
      <StatusPill tone={render.state === 'done' ? 'ok' : render.state === 'failed' ? 'bad' : 'info'}>
        {render.state === 'rendering' && progress
          ? `rendering ${Math.round(progress.percent)}%`
          : render.state}
      </StatusPill>
      <span className="small muted"> {render.formats.join(', ')}</span>
      {render.error ? <div className="small cell-error">{render.error}</div> : null}
    </li>
  );
}
