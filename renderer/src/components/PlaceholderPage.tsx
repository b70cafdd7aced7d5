import { PageHeader } from './PageHeader.js';
import { Panel } from './Panel.js';
import { StatusPill } from './StatusPill.js';

/**
 * A page that is planned but not built yet: says what it will hold and which bridge routes it
 * will use, so the operator knows what is coming and the engineer building it has the outline.
 */
export function PlaceholderPage({
  title,
  description,
  features,
  routes,
}: {
  title: string;
  description: string;
  features: readonly { name: string; detail: string }[];
  routes: readonly string[];
}) {
  return (
    <>
      <PageHeader
        title={title}
        description={description}
        actions={<StatusPill tone="neutral">Coming soon</StatusPill>}
      />
      <div className="grid grid-2-1">
        <Panel title="What this page will hold" testId="placeholder">
          <ul className="feature-list">
            {features.map((feature) => (
              <li key={feature.name}>
                <span className="feature-name">{feature.name}</span>
                <span className="feature-detail">{feature.detail}</span>
              </li>
            ))}
          </ul>
        </Panel>
        <Panel title="Bridge routes">
          <ul className="route-list">
            {routes.map((route) => (
              <li key={route} className="mono">
                {route}
              </li>
            ))}
          </ul>
          <p className="muted small">
            Until this page is built, these routes work over HTTP with the bridge key; see{' '}
            <code>/openapi.json</code>.
          </p>
        </Panel>
      </div>
    </>
  );
}
