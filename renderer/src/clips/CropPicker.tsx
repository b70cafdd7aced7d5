import { useState } from 'react';
import { renderSizes, type RenderFormat } from '../../../shared/api/renders.js';
import type { ClipRef } from './api.js';
import { useMediaUrl } from './renders-api.js';

/**
 * Where the 9:16 and 1:1 windows sit across the take's picture (issue #43): a frame at the clip's
 * in, each window drawn on it, moved with a slider (0 left, 0.5 centre, 1 right).
 */
export function CropPicker({
  clipRef,
  formats,
  cropX,
  disabled,
  onChange,
}: {
  clipRef: ClipRef;
  /** The cropped formats chosen (9x16, 1x1). */
  formats: readonly RenderFormat[];
  cropX: number;
  disabled: boolean;
  onChange: (cropX: number) => void;
}) {
  const src = useMediaUrl(
    `/clips/analyses/${encodeURIComponent(clipRef.analysisId)}/clips/${clipRef.n}/frame.jpg`,
  );
  const [aspect, setAspect] = useState<number | null>(null);
  const [failed, setFailed] = useState(false);
  const percent = Math.round(cropX * 100);
  return (
    <div className="cl-crop" data-testid="crop-picker">
      {src && !failed ? (
        <div className="cl-crop-frame">
          <img
            src={src}
            alt={`The take at the clip's in, with the ${formats.map((f) => renderSizes[f].label).join(' and ')} window`}
            onLoad={(event) =>
              setAspect(event.currentTarget.naturalWidth / event.currentTarget.naturalHeight)
            }
            onError={() => setFailed(true)}
          />
          {aspect !== null
            ? formats.map((format) => {
                const { width, height } = renderSizes[format];
                // The window's share of the picture's width (the window is the picture's full height).
                const share = Math.min(1, width / height / aspect);
                return (
                  <span
                    key={format}
                    className={`cl-crop-window cl-crop-window-${format}`}
                    style={{ width: `${share * 100}%`, left: `${cropX * (1 - share) * 100}%` }}
                    aria-hidden="true"
                  >
                    {renderSizes[format].label}
                  </span>
                );
              })
            : null}
        </div>
      ) : (
        <p className="small muted">
          No frame to show: the take's file is not readable here, or ends before the clip's in (Render says
          which).
        </p>
      )}
      <label className="cl-crop-slider">
        <span className="small muted">Window position</span>
        <input
          type="range"
          min={0}
          max={100}
          step={1}
          value={percent}
          disabled={disabled}
          aria-valuetext={
            percent === 50
              ? 'centre'
              : percent < 50
                ? `${percent}% from the left`
                : `${100 - percent}% from the right`
          }
          onChange={(event) => onChange(Number(event.target.value) / 100)}
        />
        <span className="small mono">{percent === 50 ? 'centre' : `${percent}%`}</span>
      </label>
    </div>
  );
}
