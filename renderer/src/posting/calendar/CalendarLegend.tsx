import { platformKeys, postingPlatforms } from '../../../../shared/platforms.js';
import { platformColor } from '../../chart-palette.js';
import { stateMark, stateWords, type CalendarState } from './model.js';

const states: CalendarState[] = ['scheduled', 'due', 'published', 'failed', 'cancelled'];

/** What the marks and the stripes mean: states by mark and word, platforms by colour and name. */
export function CalendarLegend() {
  return (
    <div className="cal-legend small" aria-label="Legend">
      <span className="cal-legend-group">
        {states.map((state) => (
          <span key={state} className="cal-legend-item">
            <span aria-hidden="true" className="cal-chip-mark">
              {stateMark[state]}
            </span>{' '}
            {stateWords[state]}
          </span>
        ))}
      </span>
      <span className="cal-legend-group">
        {platformKeys.map((platform) => (
          <span key={platform} className="cal-legend-item">
            <span
              className="cal-legend-swatch"
              style={{ background: platformColor(platform) }}
              aria-hidden="true"
            />
            {postingPlatforms[platform].label}
          </span>
        ))}
      </span>
    </div>
  );
}
