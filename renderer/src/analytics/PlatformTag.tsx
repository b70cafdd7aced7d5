import { platformColor } from '../chart-palette.js';
import { platformLabel } from './format.js';

/** A platform's name with its chart colour, as the analytics tables show it. */
export function PlatformTag({ platform }: { platform: string }) {
  return (
    <span className="platform-tag" style={{ borderColor: platformColor(platform) }}>
      {platformLabel(platform)}
    </span>
  );
}
