import type { RecorderTake } from '../../../shared/api/recorder.js';
import { Panel } from '../components/Panel.js';
import { addressedItemProps, useAddressedItem } from '../components/addressed-item.js';
import { QueryContent } from '../components/QueryPanel.js';
import { EmptyState } from '../components/States.js';
import { StatusPill } from '../components/StatusPill.js';
import { formatClock, formatDateTime, formatLocal } from '../format.js';
import { useRecorderTakes } from './api.js';
import { ProductionLink } from '../productions/ProductionLink.js';
import { MarkItem } from './MarkItem.js';
import { audioWords, position } from './take-words.js';

/** Takes newest first, each with its file and marks; marks made with no take below. */
export function TakesPanel() {
  const takes = useRecorderTakes();
  // Reached from a production's page or the header's search (`#/recorder?take=<id>`): this take is the one meant.
  const focusedId = useAddressedItem('take');
  return (
    <Panel title="Takes" testId="takes-panel">
      <QueryContent query={takes} what="the takes" skeletonLines={4}>
        {(data) =>
          data.takes.length === 0 && data.looseMarks.length === 0 ? (
            <EmptyState title="No takes yet">
              Each recording OBS makes appears here when it stops, with the file it wrote and its marks.
            </EmptyState>
          ) : (
            <>
              {focusedId !== null && !data.takes.some((take) => String(take.id) === focusedId) ? (
                <p className="muted small" data-testid="take-not-listed">
                  The take you opened is not among the {data.takes.length} newest listed here.
                </p>
              ) : null}
              <ol className="take-list">
                {data.takes.map((take) => (
                  <TakeItem key={take.id} take={take} focused={String(take.id) === focusedId} />
                ))}
              </ol>
              {data.looseMarks.length > 0 ? (
                <>
                  <h3 className="subheading">Marks with no take</h3>
                  <ul className="mark-list" data-testid="loose-marks">
                    {data.looseMarks.map((mark) => (
                      <MarkItem key={mark.id} mark={mark} time={formatLocal(mark.at)} />
                    ))}
                  </ul>
                </>
              ) : null}
            </>
          )
        }
      </QueryContent>
    </Panel>
  );
}

function TakeItem({ take, focused }: { take: RecorderTake; focused: boolean }) {
  return (
    <li
      {...addressedItemProps(focused)}
      className={focused ? 'take take-focused' : 'take'}
      data-testid="take"
    >
      <div className="take-head">
        <span className="take-name mono">{take.name}</span>
        <ProductionLink id={take.contentProductionId} />
        {take.stoppedAt === null ? (
          <StatusPill tone="info">Recording</StatusPill>
        ) : take.durationS !== null ? (
          <span className="take-duration">{position(take.durationS)}</span>
        ) : null}
      </div>
      <div className="take-path mono small">{take.filePath ?? 'file not reported yet'}</div>
      <div className="take-facts small" data-testid="take-facts">
        <span>
          Reel <span className="mono take-reel">{take.reel}</span>
        </span>
        {take.frameRate ? (
          <span>{take.frameRate} fps</span>
        ) : take.video ? (
          <span>
            {take.video.fpsNumerator}/{take.video.fpsDenominator} fps
          </span>
        ) : null}
        {take.video && take.video.width > 0 ? (
          <span>
            {take.video.width}×{take.video.height}
          </span>
        ) : null}
        {take.audioChannels !== null ? <span>{audioWords(take.audioChannels)}</span> : null}
      </div>
      <div className="muted small">
        {formatDateTime(take.startedAt)}
        {take.stoppedAt ? ` – ${stopText(take.startedAt, take.stoppedAt)}` : ''}
        {!take.stopSeen ? ' · the bridge was not connected when it stopped' : ''}
      </div>
      {take.marks.length > 0 ? (
        <ul className="mark-list">
          {take.marks.map((mark) => (
            <MarkItem key={mark.id} mark={mark} time={mark.offsetS === null ? '–' : position(mark.offsetS)} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/** The stop's time of day when it is the start's day, else its date too. */
function stopText(startedAt: string, stoppedAt: string): string {
  const sameDay = new Date(startedAt).toDateString() === new Date(stoppedAt).toDateString();
  return sameDay ? formatClock(stoppedAt) : formatDateTime(stoppedAt);
}
