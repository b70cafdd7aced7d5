import { useState } from 'react';
import type { ProductionPublishing, PublishRecordView } from '../../../shared/api/publishing.js';
import { Panel } from '../components/Panel.js';
import { QueryContent } from '../components/QueryPanel.js';
import { Details, EmptyState, ErrorText, Spinner } from '../components/States.js';
import { gatewayFailureWords } from '../api/words.js';
import { StatusPill } from '../components/StatusPill.js';
import { formatDateTime } from '../format.js';
import { usePublishing, useRetryPublish } from './api.js';
import { ConfirmDialog } from '../components/ConfirmDialog.js';
import { publishLabel, publishTone } from './format.js';
import { addressedItemProps, useAddressedItem } from '../components/addressed-item.js';
import { productionHash } from '../productions/production-hash.js';

/** Productions with something to do (failed, waiting, queued) first. */
function attention(group: ProductionPublishing): number {
  const states = group.records.map((r) => r.state);
  if (states.includes('failed')) return 0;
  if (states.includes('waiting') || states.includes('publishing') || states.includes('queued')) return 1;
  return 2;
}

/** Platform publishing per ContentProduction: what is queued, waiting, published (links) or failed (why). */
export function PublishingPanel() {
  const publishing = usePublishing();
  return (
    <Panel
      title="Platform publishing"
      testId="publishing-panel"
      actions={publishing.isFetching && !publishing.isPending ? <Spinner /> : null}
    >
      <QueryContent query={publishing} what="publishing records" skeletonLines={4}>
        {(data) => {
          const groups = [...data.data].sort((a, b) => attention(a) - attention(b));
          const dependencies = data.routes.filter((route) => route.dependsOn);
          return (
            <>
              <p className="muted small bc-note">
                Setting a record to Queued in the CRM publishes it through the gateway.
                {dependencies.length
                  ? ` ${dependencies.map((r) => `${r.platform} waits for ${r.dependsOn}`).join('; ')} of the same production, and uses its stream.`
                  : ''}
              </p>
              {groups.length === 0 ? (
                <EmptyState title="No PlatformPublish records">
                  Add publishing targets to a content production in the CRM.
                </EmptyState>
              ) : (
                <div className="bc-productions">
                  {groups.map((group) => (
                    <ProductionCard key={group.contentProductionId ?? 'none'} group={group} />
                  ))}
                </div>
              )}
            </>
          );
        }}
      </QueryContent>
    </Panel>
  );
}

function ProductionCard({ group }: { group: ProductionPublishing }) {
  const published = group.records.filter((r) => r.state === 'published').length;
  return (
    <section
      className="bc-production"
      data-testid="production-card"
      aria-label={group.contentProductionName ?? 'No production'}
    >
      <header className="bc-production-header">
        <h3 className="bc-production-title">
          {group.contentProductionId ? (
            // Back to the production's page (issue #42.1): the whole thread of this episode.
            <a href={productionHash(group.contentProductionId)} data-testid="production-link">
              {group.contentProductionName ?? 'Its production'}
            </a>
          ) : (
            'Not linked to a production'
          )}
        </h3>
        <span className="muted small">
          {published} of {group.records.length} published
        </span>
      </header>
      <ul className="bc-publish-list">
        {group.records.map((record) => (
          <PublishRow key={record.id} record={record} />
        ))}
      </ul>
    </section>
  );
}

const actionLabel: Partial<Record<PublishRecordView['state'], string>> = {
  draft: 'Publish',
  failed: 'Retry',
  queued: 'Publish now',
};

/**
 * A publish that goes out now (a retry, or no future date) asks first, naming the platform
 * (DESIGN §6.8); one with a future date only queues.
 */
function asksFirst(record: PublishRecordView, now: number): boolean {
  if (record.state === 'failed' || record.scheduledAt === null) return true;
  return new Date(record.scheduledAt).getTime() <= now;
}

function PublishRow({ record }: { record: PublishRecordView }) {
  const retry = useRetryPublish();
  // Reached from a production's page (`#/broadcasts?publish=<PlatformPublish id>`): this record is the one meant.
  const focused = useAddressedItem('publish') === record.id;
  const [confirming, setConfirming] = useState(false);
  const action = actionLabel[record.state];
  const what = record.title ?? record.name ?? 'this record';
  const where = record.platform ?? 'its platform';
  const send = () => retry.mutate(record.id, { onSettled: () => setConfirming(false) });
  return (
    <li
      {...addressedItemProps(focused)}
      className={`bc-publish bc-publish-${record.state}${focused ? ' bc-publish-focused' : ''}`}
      data-testid="publish-row"
      data-platform={record.platform ?? ''}
    >
      <div className="bc-publish-main">
        <div className="bc-publish-what">
          <strong>{record.platform ?? 'No platform'}</strong>
          <span className="muted small"> · {record.publishType ?? 'Upload'}</span>
          <div className="small bc-publish-title">{record.title ?? record.name ?? record.id}</div>
        </div>
        <StatusPill
          tone={publishTone[record.state]}
          title={record.status ? `CRM status: ${record.status}` : undefined}
        >
          <span data-testid="publish-state">{publishLabel(record.state, record.waitingOn)}</span>
        </StatusPill>
        <div className="bc-publish-action">
          {action ? (
            <button
              type="button"
              className="button button-small"
              disabled={retry.isPending}
              onClick={() => {
                retry.reset();
                if (asksFirst(record, Date.now())) setConfirming(true);
                else send();
              }}
            >
              {retry.isPending ? <Spinner label="Queuing…" /> : action}
            </button>
          ) : null}
          {confirming ? (
            <ConfirmDialog
              title={`Publish “${what}” to ${where} now?`}
              confirmLabel={`Publish to ${where}`}
              pendingLabel="Queuing…"
              pending={retry.isPending}
              onConfirm={send}
              onCancel={() => setConfirming(false)}
            >
              <p>It will be public.</p>
            </ConfirmDialog>
          ) : null}
        </div>
      </div>
      <PublishDetails record={record} />
      {retry.isError ? (
        <p className="field-error" role="alert">
          <ErrorText error={retry.error} />
        </p>
      ) : null}
      {retry.isSuccess && ['queued', 'waiting', 'publishing'].includes(record.state) ? (
        <p className="muted small" role="status">
          Queued: {retry.data.message}.
        </p>
      ) : null}
    </li>
  );
}

function PublishDetails({ record }: { record: PublishRecordView }) {
  if (record.state === 'published') {
    return (
      <dl className="bc-publish-facts small">
        {record.platformUrl ? (
          <>
            <dt>Link</dt>
            <dd>
              <a href={record.platformUrl} target="_blank" rel="noreferrer" className="break">
                {record.platformUrl}
              </a>
            </dd>
          </>
        ) : null}
        {record.platformId ? (
          <>
            <dt>Platform id</dt>
            <dd className="mono">{record.platformId}</dd>
          </>
        ) : null}
        {record.streamUrl ? (
          <>
            <dt>Stream</dt>
            <dd className="mono break">
              {record.streamUrl}{' '}
              {record.streamKey ? <span className="muted">key {record.streamKey}</span> : null}
            </dd>
          </>
        ) : null}
        {record.publishedAt ? (
          <>
            <dt>Published</dt>
            <dd>{formatDateTime(record.publishedAt)}</dd>
          </>
        ) : null}
      </dl>
    );
  }
  if (record.state === 'failed') {
    const failure = record.apiResponse ? gatewayFailureWords(record.apiResponse) : null;
    return (
      <p className="bc-api-response" data-testid="publish-api-response">
        {failure?.words ?? 'Failed without a message from the gateway.'}
        {failure?.details ? (
          <>
            {' '}
            <Details>{failure.details}</Details>
          </>
        ) : null}
      </p>
    );
  }
  return record.note ? <p className="muted small bc-publish-note">{record.note}</p> : null;
}
