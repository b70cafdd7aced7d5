import { useState } from 'react';
import type { ResponseOf } from '../../../shared/api/contract.js';
import { guestStages, type getGuestPipeline, type GuestStage } from '../../../shared/api/guests.js';
import { Panel } from '../components/Panel.js';
import { QueryContent } from '../components/QueryPanel.js';
import { EmptyState } from '../components/States.js';
import { StatusPill } from '../components/StatusPill.js';
import { usePipeline } from './api.js';
import { formatDays, formatRate } from './format.js';

type Pipeline = ResponseOf<typeof getGuestPipeline>;
type RatioName = keyof Pipeline['ratios'];

const ratioInfo: Record<
  RatioName,
  { label: string; formula: (p: Pipeline) => string; note?: (p: Pipeline) => string | null }
> = {
  responseRate: {
    label: 'Response rate',
    formula: (p) => `${p.counts.Responded} of ${p.total} guests responded`,
  },
  confirmationRate: {
    label: 'Confirmation rate',
    formula: (p) => `${p.counts.Confirmed} of ${p.counts.Responded} who responded confirmed`,
  },
  showRate: {
    label: 'Show rate',
    formula: (p) =>
      `${p.showRateBasis.recorded} of ${p.showRateBasis.due} recordings whose date has passed took place`,
    // A guest whose recording is still to come is not a no-show: say that it is left out.
    note: (p) =>
      p.showRateBasis.notYetDue === 0
        ? 'Only recordings whose date has passed count.'
        : `Only recordings whose date has passed count: ${p.showRateBasis.notYetDue} still to come ${p.showRateBasis.notYetDue === 1 ? 'is' : 'are'} not counted as no-shows.`,
  },
  timeToPublishDays: {
    label: 'Time to publish',
    formula: (p) =>
      p.publishedSamples === 0
        ? 'no guest went from Recorded to Published yet'
        : `median of ${p.publishedSamples} recorded → published`,
  },
};

const ranges = [
  { label: 'All time', days: null },
  { label: 'Last 30 days', days: 30 },
  { label: 'Last 90 days', days: 90 },
] as const;

const isoDay = (msAgo: number) => new Date(Date.now() - msAgo).toISOString().slice(0, 10);

/** The four ratios of spec §1.9 against their targets, and the funnel of guests per stage. */
export function PipelinePanel() {
  const [range, setRange] = useState<number | null>(null);
  const [startDate, setStartDate] = useState('');
  const pipeline = usePipeline(startDate, '');
  const choose = (days: number | null) => {
    setRange(days);
    setStartDate(days === null ? '' : isoDay(days * 86_400_000));
  };
  return (
    <Panel
      title="Pipeline"
      testId="guests-pipeline"
      actions={
        <div className="chips guests-chips" role="group" aria-label="Guests whose pipeline started">
          {ranges.map((option) => (
            <button
              key={option.label}
              type="button"
              className={`chip ${range === option.days ? 'chip-active' : ''}`}
              aria-pressed={range === option.days}
              onClick={() => choose(option.days)}
            >
              {option.label}
            </button>
          ))}
        </div>
      }
    >
      <QueryContent query={pipeline} what="the pipeline" skeletonLines={6}>
        {(data) =>
          data.total === 0 ? (
            <EmptyState title="No guests in this range">
              Guests count from the first stage the bridge recorded for them (else their creation in the CRM).
            </EmptyState>
          ) : (
            <div className="guests-pipeline">
              <div className="guests-ratios">
                {(Object.keys(ratioInfo) as RatioName[]).map((name) => (
                  <Ratio key={name} name={name} data={data} />
                ))}
              </div>
              <Funnel data={data} />
            </div>
          )
        }
      </QueryContent>
    </Panel>
  );
}

function Ratio({ name, data }: { name: RatioName; data: Pipeline }) {
  const value = data.ratios[name];
  const target = data.targets[name];
  const isDays = name === 'timeToPublishDays';
  const shown = isDays ? formatDays(value) : formatRate(value);
  const targetText = `target ${target.direction === 'above' ? '>' : '<'} ${isDays ? formatDays(target.target) : formatRate(target.target)}`;
  const tone = target.met === null ? 'neutral' : target.met ? 'ok' : 'bad';
  const note = ratioInfo[name].note?.(data) ?? null;
  return (
    <div className={`guests-ratio guests-ratio-${tone}`} data-testid={`ratio-${name}`}>
      <div className="guests-ratio-head">
        <span className="number-label">{ratioInfo[name].label}</span>
        <StatusPill tone={tone}>
          {target.met === null ? 'no data' : target.met ? 'on target' : 'off target'}
        </StatusPill>
      </div>
      <span className={`number-value ${target.met === false ? 'number-bad' : ''}`}>{shown}</span>
      <span className="small muted">
        {targetText} · {ratioInfo[name].formula(data)}
      </span>
      {note ? (
        <span className="small guests-ratio-note" data-testid={`ratio-${name}-note`}>
          {note}
        </span>
      ) : null}
    </div>
  );
}

function Funnel({ data }: { data: Pipeline }) {
  return (
    <div className="guests-funnel" aria-label="Guests who reached each stage">
      {guestStages.map((stage: GuestStage) => {
        const reached = data.counts[stage];
        const width = data.total === 0 ? 0 : Math.max(2, Math.round((reached / data.total) * 100));
        return (
          <div key={stage} className="guests-funnel-row">
            <span className="guests-funnel-stage">{stage}</span>
            <span className="guests-funnel-track">
              <span className="guests-funnel-bar" style={{ width: `${width}%` }} />
            </span>
            <span className="guests-funnel-count" title={`${reached} reached ${stage}`}>
              {reached}
            </span>
            <span className="guests-funnel-now small muted">{data.current[stage]} now</span>
          </div>
        );
      })}
      <p className="small muted guests-funnel-note">
        Counts are cumulative: a guest at Scheduled has also responded and confirmed.
        {data.otherStage > 0 ? ` ${data.otherStage} guest(s) at a stage outside the pipeline.` : ''}
      </p>
    </div>
  );
}
