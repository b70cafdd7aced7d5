import { useState } from 'react';
import { formatClipTime } from '../../../shared/api/clips.js';
import {
  renderFormats,
  renderSizes,
  type RenderFile,
  type RenderFormat,
  type RenderRecord,
} from '../../../shared/api/renders.js';
import { errorMessage } from '../api/transport/client.js';
import { LocalTime } from '../components/LocalTime.js';
import { Spinner } from '../components/States.js';
import { StatusPill } from '../components/StatusPill.js';
import type { ClipRef } from './api.js';
import { CropPicker } from './CropPicker.js';
import { ReadyPanel } from './ReadyPanel.js';
import {
  useCancelRender,
  useClipRenders,
  useMediaUrl,
  useRenderProgress,
  useStartRender,
} from './renders-api.js';

/** What each format is for (spec §2.3's platform table). */
const formatUse: Record<RenderFormat, string> = {
  '9x16': 'Shorts, Reels, Shortvideo',
  '1x1': 'Microblog, feeds',
  '16x9': 'Microblog, Videosite',
};

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/**
 * A suggestion cut from its take into MP4s (issue #43): formats, captions, where the 9:16 and 1:1
 * windows sit; then its progress (live, with Cancel), and the files playing here once done.
 */
export function RenderPanel({
  clipRef,
  clip,
  contentProductionId,
}: {
  clipRef: ClipRef;
  /** The production the clip is of: a post made from it links to it. */
  contentProductionId: string;
  /** The suggestion as reviewed now: a render of other in/out is said to be out of date. */
  clip: { startTime: number; endTime: number; hookQuote: string };
}) {
  const renders = useClipRenders(clipRef);
  const start = useStartRender(clipRef);
  const [formats, setFormats] = useState<RenderFormat[]>(['9x16']);
  const [captions, setCaptions] = useState(true);
  const [cropX, setCropX] = useState(0.5);
  const latest = renders.data?.renders[0] ?? null;
  // The newest file made stays on show under a render that is running, was cancelled or failed.
  const shown =
    renders.data?.renders.find((render) => render.state === 'done' && render.files.length > 0) ?? null;
  const busy = latest?.state === 'queued' || latest?.state === 'rendering';
  const toggle = (format: RenderFormat) =>
    setFormats((chosen) =>
      chosen.includes(format)
        ? chosen.filter((f) => f !== format)
        : renderFormats.filter((f) => f === format || chosen.includes(f)),
    );
  const cropped = formats.filter((format) => format !== '16x9');

  return (
    <section className="cl-render" aria-label={`Render clip ${clipRef.n}`} data-testid="clip-render">
      <div className="cl-render-options">
        <fieldset className="cl-render-formats">
          <legend className="small muted">Formats</legend>
          {renderFormats.map((format) => (
            <label key={format} className="cl-check" title={formatUse[format]}>
              <input
                type="checkbox"
                checked={formats.includes(format)}
                disabled={busy}
                onChange={() => toggle(format)}
              />
              {renderSizes[format].label}
              <span className="muted small">
                {renderSizes[format].width}×{renderSizes[format].height}
              </span>
            </label>
          ))}
        </fieldset>
        <label className="cl-check">
          <input
            type="checkbox"
            checked={captions}
            disabled={busy}
            onChange={(event) => setCaptions(event.target.checked)}
          />
          Burn in captions
        </label>
      </div>
      {cropped.length > 0 ? (
        <CropPicker clipRef={clipRef} formats={cropped} cropX={cropX} disabled={busy} onChange={setCropX} />
      ) : null}
      <div className="cl-card-actions">
        <button
          type="button"
          className="button button-small button-primary"
          disabled={busy || start.isPending || formats.length === 0}
          onClick={() => start.mutate({ formats, captions, cropX })}
        >
          {start.isPending ? <Spinner label="Asking…" /> : latest ? 'Render again' : 'Render'}
        </button>
        {formats.length === 0 ? <span className="small muted">Choose a format</span> : null}
        {start.isError ? (
          <span className="field-error" role="alert" data-testid="render-refused">
            Couldn't render: {errorMessage(start.error)}
          </span>
        ) : null}
      </div>
      {latest && latest.id !== shown?.id ? (
        <RenderState
          clipRef={clipRef}
          render={latest}
          clip={clip}
          contentProductionId={contentProductionId}
        />
      ) : null}
      {shown ? (
        <RenderState clipRef={clipRef} render={shown} clip={clip} contentProductionId={contentProductionId} />
      ) : null}
    </section>
  );
}

function RenderState({
  clipRef,
  render,
  clip,
  contentProductionId,
}: {
  clipRef: ClipRef;
  render: RenderRecord;
  clip: { startTime: number; endTime: number; hookQuote: string };
  contentProductionId: string;
}) {
  const cancel = useCancelRender(clipRef);
  const progress = useRenderProgress(render);
  const range = `${formatClipTime(render.startTime)}–${formatClipTime(render.endTime)}`;
  const outOfDate = render.startTime !== clip.startTime || render.endTime !== clip.endTime;
  const cancelButton = (
    <button
      type="button"
      className="button button-small"
      disabled={cancel.isPending}
      onClick={() => cancel.mutate(render.id)}
    >
      Cancel
    </button>
  );
  return (
    <div className="cl-render-state" data-testid="render-state" data-state={render.state}>
      {render.state === 'queued' ? (
        <p className="cl-render-line">
          <StatusPill tone="info">Queued</StatusPill>
          <span className="small muted">starts when the render before it is done</span>
          {cancelButton}
        </p>
      ) : render.state === 'rendering' ? (
        <div className="cl-render-line">
          <StatusPill tone="info">Rendering</StatusPill>
          <span
            className="meter meter-ok cl-render-meter"
            role="progressbar"
            aria-label="Render progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={progress?.percent ?? 0}
          >
            <span style={{ width: `${progress?.percent ?? 0}%` }} />
          </span>
          <span className="small" data-testid="render-progress">
            {progress?.percent ?? 0}%
            {progress?.etaS != null ? ` · about ${formatClipTime(progress.etaS)} left` : ''}
          </span>
          {cancelButton}
        </div>
      ) : render.state === 'failed' ? (
        <p className="field-error" role="alert">
          Render of {range} failed: {render.error}
        </p>
      ) : render.state === 'cancelled' ? (
        <p className="small muted">Render of {range} cancelled.</p>
      ) : (
        <RenderPreview render={render} />
      )}
      {outOfDate && render.state === 'done' ? (
        <p className="cl-fit-warning" role="status">
          This render is of {range}; the clip is now {formatClipTime(clip.startTime)}–
          {formatClipTime(clip.endTime)}. Render again to replace it.
        </p>
      ) : null}
      {render.notes.length > 0 ? (
        <ul className="cl-render-notes small muted">
          {render.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
      {render.state === 'done' && render.files.length > 0 ? (
        <ReadyPanel
          clipRef={clipRef}
          render={render}
          hookQuote={clip.hookQuote}
          contentProductionId={contentProductionId}
        />
      ) : null}
    </div>
  );
}

/** The done render's files: one plays at a time, with its size, length and resolution. */
function RenderPreview({ render }: { render: RenderRecord }) {
  const [shown, setShown] = useState<RenderFormat>(render.files[0]?.format ?? '9x16');
  const file: RenderFile | undefined = render.files.find((f) => f.format === shown) ?? render.files[0];
  const src = useMediaUrl(file?.url ?? null);
  if (!file || !src)
    return <p className="small muted">No file left: a newer render of this clip replaced it.</p>;
  return (
    <div className="cl-render-done">
      <div className="cl-render-line">
        <StatusPill tone="ok">Rendered</StatusPill>
        {render.files.length > 1 ? (
          <span className="cl-render-tabs" role="tablist" aria-label="Format shown">
            {render.files.map((f) => (
              <button
                key={f.format}
                type="button"
                role="tab"
                aria-selected={f.format === file.format}
                className={`button button-small${f.format === file.format ? ' button-primary' : ''}`}
                onClick={() => setShown(f.format)}
              >
                {renderSizes[f.format].label}
              </button>
            ))}
          </span>
        ) : null}
      </div>
      <video
        key={src}
        className={`cl-render-video cl-render-video-${file.format}`}
        src={src}
        controls
        preload="metadata"
        playsInline
        data-testid="render-video"
      />
      <p className="cl-render-facts small" data-testid="render-facts">
        {renderSizes[file.format].label} · {file.width}×{file.height} · {formatClipTime(file.durationS)} (
        {file.durationS.toFixed(1)} s) · {megabytes(file.bytes)}
        {render.loudness?.measuredLufs != null
          ? ` · ${render.loudness.targetLufs} LUFS (gain ${render.loudness.gainDb > 0 ? '+' : ''}${render.loudness.gainDb} dB)`
          : ''}
      </p>
      <p className="cl-render-line small">
        <a
          className="button button-small"
          href={src}
          download={`${render.take.name}-clip-${render.n}-${file.format}.mp4`}
        >
          Download {renderSizes[file.format].label}
        </a>
        {render.expiresAt ? (
          <span className="muted">
            kept until <LocalTime iso={render.expiresAt} utc={false} />
          </span>
        ) : null}
      </p>
    </div>
  );
}
