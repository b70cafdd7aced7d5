import { Panel } from '../components/Panel.js';
import type { Thread } from './api.js';

/** The content's numbers per platform and its views over 90 days (a line drawn as SVG: cheap to draw). */
export function ThreadNumbers({ thread }: { thread: Thread }) {
  const { latest, viewsByDay } = thread.analytics;
  const posted = thread.posts.filter((post) => post.numbers !== null && post.status === 'Published');
  const likes = posted.reduce((sum, post) => sum + (post.numbers?.likes ?? 0), 0);
  const shares = posted.reduce((sum, post) => sum + (post.numbers?.shares ?? 0), 0);
  return (
    <Panel title="Numbers" testId="thread-numbers" actions={<a href="#/analytics">Analytics →</a>}>
      {latest.length === 0 ? (
        <p className="muted small">No content metrics collected for this production yet.</p>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th>Platform</th>
                  <th className="number">Views</th>
                  <th className="number">Watch hours</th>
                  <th className="number">Likes</th>
                  <th className="number">Comments</th>
                </tr>
              </thead>
              <tbody>
                {latest.map((row) => (
                  <tr key={row.platform}>
                    <td>{row.platform}</td>
                    <td className="number">{row.views.toLocaleString()}</td>
                    <td className="number">
                      {row.watchHours.toLocaleString(undefined, { maximumFractionDigits: 1 })}
                    </td>
                    <td className="number">{row.likes.toLocaleString()}</td>
                    <td className="number">{row.comments.toLocaleString()}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ViewsLine days={viewsByDay} />
        </>
      )}
      <p className="small">
        Its published posts: {posted.length} · {likes.toLocaleString()} likes · {shares.toLocaleString()}{' '}
        shares
      </p>
    </Panel>
  );
}

function ViewsLine({ days }: { days: Thread['analytics']['viewsByDay'] }) {
  if (days.length < 2) return null;
  const max = Math.max(...days.map((d) => d.views), 1);
  const points = days
    .map((d, i) => `${(i / (days.length - 1)) * 300},${60 - (d.views / max) * 56}`)
    .join(' ');
  return (
    <figure className="thread-views">
      <svg viewBox="0 0 300 60" preserveAspectRatio="none" role="img" aria-label="Views over time">
        <polyline
          points={points}
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          vectorEffect="non-scaling-stroke"
        />
      </svg>
      <figcaption className="small muted">
        Total views, {days[0]!.day} to {days.at(-1)!.day}: {days.at(-1)!.views.toLocaleString()}
      </figcaption>
    </figure>
  );
}
