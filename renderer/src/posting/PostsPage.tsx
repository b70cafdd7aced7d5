import { PageHeader } from '../components/PageHeader.js';
import { Panel } from '../components/Panel.js';
import { QueryContent } from '../components/QueryPanel.js';
import { Spinner } from '../components/States.js';
import { usePosts, useQuota } from './api.js';
import { PostCalendar } from './calendar/PostCalendar.js';
import { Composer } from './Composer.js';
import { PostList } from './PostList.js';
import { QuotaMeter } from './QuotaMeter.js';
import { SyncButton } from './SyncButton.js';
import { CrmUnreadNote } from './CrmUnreadNote.js';
import { PublishedElsewhereNote } from './PublishedElsewhereNote.js';
import './posts.css';

export function PostsPage() {
  const quota = useQuota();
  const posts = usePosts();
  return (
    <>
      <PageHeader
        title="Posts"
        description="Social posts through the posting provider: compose and schedule, see what is queued, what went out and what failed."
        actions={<SyncButton />}
      />
      <div className="grid grid-2-1">
        <Composer quota={quota.data?.quota} />
        <div className="posts-side">
          <Panel title="Today's quota">
            <QueryContent query={quota} what="the quota" skeletonLines={2}>
              {(data) => <QuotaMeter quota={data.quota} />}
            </QueryContent>
          </Panel>
          <Panel title="Rules">
            <ul className="rule-list">
              <li>Each chosen platform's character limit (microblog counts a link as 23)</li>
              <li>
                Media links must be http(s); Photogram needs an image or a video, Videosite and Shortvideo a
                video (told from the link's ending, e.g. .jpg or .mp4; a link that does not say is a warning)
              </li>
              <li>A time in the past is refused; under 10 minutes ahead is allowed with a warning</li>
              <li>2 to 3 hours between posts on the same platform is recommended</li>
              <li>The bridge never posts the same post twice, even if a request or webhook repeats</li>
            </ul>
          </Panel>
        </div>
      </div>
      <Panel title="Calendar">
        <PostCalendar />
      </Panel>
      <Panel
        title="All posts"
        testId="posts-panel"
        actions={posts.isFetching && !posts.isPending ? <Spinner /> : null}
      >
        <QueryContent query={posts} what="the posts" skeletonLines={5}>
          {(data) => (
            <>
              <CrmUnreadNote crmError={data.crmError} crmFailure={data.crmFailure} />
              <PublishedElsewhereNote published={data.published} />
              <PostList posts={data.data} />
            </>
          )}
        </QueryContent>
      </Panel>
    </>
  );
}
