import { useHealth } from '../api/transport/health.js';
import { useSearchParams } from '../hash-router.js';
import { PageHeader } from '../components/PageHeader.js';
import { Panel } from '../components/Panel.js';
import { QueryContent } from '../components/QueryPanel.js';
import { EmptyState } from '../components/States.js';
import { useGuests } from './api.js';
import { GuestDetail } from './GuestDetail.js';
import { PipelinePanel } from './PipelinePanel.js';
import { StageBoard } from './StageBoard.js';
import { TemplateEditor } from './TemplateEditor.js';
import { SandboxEnginePanel, WorkflowRunsPanel } from './WorkflowPanels.js';
import './guests.css';

export function GuestsPage() {
  const health = useHealth();
  const guests = useGuests();
  // The chosen guest is in the address (`#/guests?guest=<id>`): the header's search and links open it.
  const [params, setParams] = useSearchParams();
  const selected = params.get('guest');
  const setSelected = (id: string | null) => {
    const next = new URLSearchParams(params);
    if (id === null) next.delete('guest');
    else next.set('guest', id);
    setParams(next, { replace: true });
  };
  return (
    <>
      <PageHeader
        title="Guests"
        description="The guest pipeline from outreach to published, the workflows each stage starts, and the emails they send."
      />
      <div className="grid">
        <PipelinePanel />
        <Panel title="Guests by stage" testId="guests-stages">
          <QueryContent query={guests} what="the guests" skeletonLines={5}>
            {(data) =>
              data.data.length === 0 ? (
                <EmptyState title="No guests in the CRM">
                  GuestBooking records appear here; their stage changes arrive by the guest webhooks.
                </EmptyState>
              ) : (
                <StageBoard guests={data.data} selectedId={selected} onSelect={setSelected} />
              )
            }
          </QueryContent>
        </Panel>
        <div className="grid grid-2-1">
          <GuestDetail guestId={selected} />
          <div className="grid">
            <WorkflowRunsPanel onSelect={setSelected} />
            {health.data?.sandbox ? <SandboxEnginePanel /> : null}
          </div>
        </div>
        <TemplateEditor guests={guests.data?.data} />
      </div>
    </>
  );
}
