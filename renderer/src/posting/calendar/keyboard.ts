import { KeyboardCode, type ClientRect, type KeyboardCoordinateGetter } from '@dnd-kit/core';

type Coordinates = { x: number; y: number };
import { neighbourTarget, type Direction } from './model.js';

const directions: Partial<Record<string, Direction>> = {
  [KeyboardCode.Left]: 'left',
  [KeyboardCode.Right]: 'right',
  [KeyboardCode.Up]: 'up',
  [KeyboardCode.Down]: 'down',
};

const centre = (rect: ClientRect) => ({ x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 });

/**
 * The keyboard moves a picked-up post one target at a time: a day (← →) or a week (↑ ↓) in the
 * month, a day (← →) or 15 minutes (↑ ↓) in the week. It keeps the target itself (from the
 * post's own, set by `start`) rather than reading the drag's `over`, which is updated after a
 * render and lags behind quick key presses; the coordinates it returns centre the dragged chip on
 * that target, so the collision detection (closest centre) lands there.
 */
export function calendarKeyboard() {
  let target: string | null = null;
  let origin: { coordinates: Coordinates; centre: Coordinates } | null = null;
  const getter: KeyboardCoordinateGetter = (event, { currentCoordinates, context }) => {
    const direction = directions[event.code];
    if (!direction || target === null) return undefined;
    event.preventDefault();
    if (origin === null) {
      if (!context.collisionRect) return undefined;
      origin = { coordinates: currentCoordinates, centre: centre(context.collisionRect) };
    }
    const next = neighbourTarget(target, direction);
    const rect = next === null ? undefined : context.droppableRects.get(next);
    if (!next || !rect) return currentCoordinates;
    target = next;
    const goal = centre(rect);
    return {
      x: origin.coordinates.x + goal.x - origin.centre.x,
      y: origin.coordinates.y + goal.y - origin.centre.y,
    };
  };
  return {
    getter,
    /** A drag starts from `home`, the post's own target. */
    start(home: string) {
      target = home;
      origin = null;
    },
  };
}
