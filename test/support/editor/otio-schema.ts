import { z } from 'zod';

/**
 * OpenTimelineIO's serialized schemas, as its documentation lists their fields ("Serialized Data",
 * docs/tutorials/otio-serialized-schema.md): what an .otio file must hold for OTIO (and so Resolve,
 * Premiere through its OTIO import, Avid through OTIO's adapters) to read it. Strict: a field OTIO
 * does not know fails.
 */
export const rationalTime = z.strictObject({
  OTIO_SCHEMA: z.literal('RationalTime.1'),
  rate: z.number().positive(),
  value: z.number(),
});
export const timeRange = z.strictObject({
  OTIO_SCHEMA: z.literal('TimeRange.1'),
  start_time: rationalTime,
  duration: rationalTime,
});
const metadata = z.record(z.string(), z.unknown());

export const marker = z.strictObject({
  OTIO_SCHEMA: z.literal('Marker.2'),
  name: z.string(),
  metadata,
  color: z.enum([
    'PINK',
    'RED',
    'ORANGE',
    'YELLOW',
    'GREEN',
    'CYAN',
    'BLUE',
    'PURPLE',
    'MAGENTA',
    'BLACK',
    'WHITE',
  ]),
  marked_range: timeRange,
  comment: z.string(),
});

export const externalReference = z.strictObject({
  OTIO_SCHEMA: z.literal('ExternalReference.1'),
  name: z.string(),
  metadata,
  available_range: timeRange.nullable(),
  available_image_bounds: z.null(),
  target_url: z.string(),
});

const item = {
  name: z.string(),
  metadata,
  source_range: timeRange.nullable(),
  effects: z.array(z.never()),
  markers: z.array(marker),
  enabled: z.boolean(),
};

export const clip = z.strictObject({
  OTIO_SCHEMA: z.literal('Clip.2'),
  ...item,
  media_references: z.record(z.string(), externalReference),
  active_media_reference_key: z.string(),
});

export const gap = z.strictObject({ OTIO_SCHEMA: z.literal('Gap.1'), ...item });

export const track = z.strictObject({
  OTIO_SCHEMA: z.literal('Track.1'),
  ...item,
  kind: z.enum(['Video', 'Audio']),
  children: z.array(z.union([clip, gap])),
});

export const stack = z.strictObject({
  OTIO_SCHEMA: z.literal('Stack.1'),
  ...item,
  children: z.array(track),
});

export const timeline = z.strictObject({
  OTIO_SCHEMA: z.literal('Timeline.1'),
  name: z.string(),
  metadata,
  global_start_time: rationalTime.nullable(),
  tracks: stack,
});
