import { ALNUM, LOWER_ALNUM, type Prng } from '../common/prng.js';
import { GatewayError } from './errors.js';

/** The platforms and kinds of the default route table (DESIGN §6.4). */
export const publishPlatforms = ['videosite', 'altvideo', 'streamhost'] as const;
export type GatewayPlatform = (typeof publishPlatforms)[number];
export type PublishKind = 'livestream' | 'upload';

export interface PublishResult {
  platformUrl: string;
  platformId: string;
  streamUrl?: string;
  streamKey?: string;
}

export interface PublishRecord {
  path: string;
  platform: GatewayPlatform;
  kind: PublishKind;
  body: Record<string, unknown>;
  status: number;
  response: PublishResult | { error: string; code: string; details?: string };
  at: string;
}

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * Publishes one PlatformPublish record's fields to a platform. Streamhost's livestream
 * restreams a primary platform, so it needs that platform's streamUrl and streamKey.
 */
export function publish(
  platform: GatewayPlatform,
  kind: PublishKind,
  body: Record<string, unknown>,
  prng: Prng,
): PublishResult {
  if (typeof body.title !== 'string' || body.title.trim() === '') {
    throw new GatewayError(
      400,
      'VALIDATION_ERROR',
      'title is required',
      `${platform} ${kind} needs a non-empty title`,
    );
  }
  const scheduledAt = body.scheduledAt;
  if (
    scheduledAt !== undefined &&
    scheduledAt !== null &&
    (typeof scheduledAt !== 'string' || !ISO_8601.test(scheduledAt))
  ) {
    throw new GatewayError(
      400,
      'VALIDATION_ERROR',
      'scheduledAt must be ISO 8601 with a time zone',
      `got ${JSON.stringify(scheduledAt)}`,
    );
  }
  const key = (groups: number): string =>
    Array.from({ length: groups }, () => prng.chars(4, LOWER_ALNUM)).join('-');
  switch (platform) {
    case 'videosite': {
      const id = prng.chars(11, `${ALNUM}_-`);
      return {
        platformId: id,
        platformUrl: `https://videosite.example/watch?v=${id}`,
        ...(kind === 'livestream'
          ? { streamUrl: 'rtmp://live.videosite.example/live2', streamKey: key(5) }
          : {}),
      };
    }
    case 'altvideo': {
      const id = prng.chars(9, '0123456789');
      return {
        platformId: id,
        platformUrl: `https://altvideo.example/video/${id}`,
        ...(kind === 'livestream'
          ? { streamUrl: 'rtmps://live.altvideo.example:443/app', streamKey: `av_${prng.chars(20, ALNUM)}` }
          : {}),
      };
    }
    case 'streamhost': {
      if (kind === 'livestream') {
        const { streamUrl, streamKey } = body;
        if (
          typeof streamUrl !== 'string' ||
          !/^rtmps?:\/\/\S+/.test(streamUrl) ||
          typeof streamKey !== 'string' ||
          streamKey === ''
        ) {
          throw new GatewayError(
            400,
            'RTMP_INVALID',
            "streamhost livestream needs the primary platform's streamUrl (rtmp) and streamKey",
            `got streamUrl ${JSON.stringify(streamUrl ?? null)}`,
          );
        }
      }
      const id = prng.chars(16, LOWER_ALNUM);
      return {
        platformId: id,
        platformUrl: `https://streamhost.example/b/${id}`,
        // Echoes the ingest it restreams from.
        ...(kind === 'livestream'
          ? { streamUrl: String(body.streamUrl), streamKey: String(body.streamKey) }
          : {}),
      };
    }
  }
}
