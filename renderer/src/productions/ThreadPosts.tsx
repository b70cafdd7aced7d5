import { LocalTime } from '../components/LocalTime.js';
import { Panel } from '../components/Panel.js';
import { StatusPill } from '../components/StatusPill.js';
import type { Thread } from './api.js';
import { stageTone } from './stage-tone.js';

/**
 * Social posts (scheduled, published, failed): the CRM's SocialPosts and those scheduled from the
 * dashboard (issue #44.2, with the clip they came from), and the platform publish records.
 */
export function ThreadPosts({ thread }: { thread: Thread }) {
  const counts = new Map<string, number>();
  for (const post of thread.posts)
    counts.set(post.status ?? 'Draft', (counts.get(post.status ?? 'Draft') ?? 0) + 1);
  return (
    <>
      <Panel
        title="Posts"
        testId="thread-posts"
        actions={
          // The composer opened for this production: the post it schedules links to it (issue #42.2).
          <a href={`#/posts?production=${encodeURIComponent(thread.production.id)}`}>Write a post for it →</a>
        }
      >
        {thread.posts.length === 0 ? (
          <p className="muted small">
            Not linked: no SocialPost record names this production, and no post scheduled from the dashboard.
            “Write a post for it” opens the composer with the post linked here.
          </p>
        ) : (
          <>
            <p className="small muted">
              {[...counts].map(([status, n]) => `${n} ${status.toLowerCase()}`).join(' · ')}
            </p>
            <div className="table-wrap">
              <table className="table thread-posts">
                <thead>
                  <tr>
                    <th>Post</th>
                    <th>Platform</th>
                    <th>When</th>
                    <th>Status</th>
                  </tr>
                </thead>
                <tbody>
                  {thread.posts.map((post) => (
                    <tr key={post.id} data-testid="thread-post" data-from={post.from}>
                      <td className="ellipsis">
                        <a href={`#/posts?post=${encodeURIComponent(post.id)}`}>
                          {post.content || '(no text)'}
                        </a>
                        {post.from === 'dashboard' || post.clipId ? (
                          <div className="small muted">
                            {post.from === 'dashboard' ? 'Scheduled from the dashboard' : 'From the CRM'}
                            {post.clipId ? (
                              <>
                                {' · from clip '}
                                <span className="mono">{post.clipId}</span>
                              </>
                            ) : null}
                          </div>
                        ) : null}
                        {post.error ? <div className="small cell-error">{post.error}</div> : null}
                      </td>
                      <td>{post.platform ?? '—'}</td>
                      <td className="small">
                        {post.scheduledAt ? <LocalTime iso={post.scheduledAt} utc={false} /> : '—'}
                      </td>
                      <td>
                        {post.status ? (
                          <StatusPill tone={stageTone(post.status)}>{post.status}</StatusPill>
                        ) : null}
                        {post.url ? (
                          <a className="small" href={post.url} target="_blank" rel="noreferrer">
                            {' '}
                            open
                          </a>
                        ) : null}
                        {post.numbers && post.status === 'Published' ? (
                          <div className="small muted">
                            {post.numbers.likes} likes · {post.numbers.shares} shares
                          </div>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </Panel>
      <Panel title="Publishing" testId="thread-publishes" actions={<a href="#/broadcasts">Publishing →</a>}>
        {thread.publishes.length === 0 ? (
          <p className="muted small">No PlatformPublish record names this production.</p>
        ) : (
          <ul className="plain-list thread-items">
            {thread.publishes.map((publish) => (
              <li key={publish.id}>
                <a href={`#/broadcasts?publish=${encodeURIComponent(publish.id)}`}>
                  {publish.platform ?? publish.name ?? publish.id}
                </a>{' '}
                {publish.status ? (
                  <StatusPill tone={stageTone(publish.status)}>{publish.status}</StatusPill>
                ) : null}
                {publish.platformUrl ? (
                  <a className="small" href={publish.platformUrl} target="_blank" rel="noreferrer">
                    {' '}
                    open
                  </a>
                ) : null}
                {publish.error ? <div className="small cell-error">{publish.error}</div> : null}
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </>
  );
}
