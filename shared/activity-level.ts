import { z } from 'zod';

/**
 * How much an activity event matters to the operator. A module of its own: the activity list's
 * contract needs only this, not the event schemas of shared/activity-events.ts (and the area
 * contracts those name), which the dashboard's first screen does not load (issue #13.4).
 */
export const activityLevel = z.enum(['info', 'warn', 'error']);
export type ActivityLevel = z.infer<typeof activityLevel>;
