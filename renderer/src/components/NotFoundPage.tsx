import { Link } from '../hash-router.js';
import { PageHeader } from './PageHeader.js';
import { Panel } from './Panel.js';
import { EmptyState } from './States.js';

export function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" />
      <Panel title="Nothing here">
        <EmptyState title="This address does not match a page.">
          <Link to="/">Back to the overview</Link>
        </EmptyState>
      </Panel>
    </>
  );
}
