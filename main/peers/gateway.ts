import { z } from 'zod';
import type { BroadcastSettings, RemoteBroadcast, StreamSource } from '../../shared/api/broadcasts.js';
import { RateLimiter } from './rate-limiter.js';
import { HttpClient, type HttpClientOptions } from './http-client.js';
import type { PeerError } from './peer-error.js';

/**
 * The publishing gateway (DESIGN §5.3): live broadcasts at the host and uploads/livestreams
 * on the platforms of the route table. Knows the wire, not what the CRM records mean.
 */

export const gatewayCodes = [
  'CHANNEL_NOT_FOUND',
  'RTMP_INVALID',
  'AUTH_EXPIRED',
  'CONFLICT',
  'STREAMHOST_ERROR',
] as const;
export type GatewayCode = (typeof gatewayCodes)[number];

const createdBroadcast = z.looseObject({
  id: z.string().min(1),
  embedUrl: z.string(),
  dashboardUrl: z.string(),
});
export type CreatedBroadcast = z.infer<typeof createdBroadcast>;

const broadcastBody = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  status: z.string().min(1),
  viewerCount: z.number().int().min(0),
  startedAt: z.string().nullish(),
  streamHealth: z.string().nullish(),
});

const endedBroadcast = z.looseObject({ id: z.string().min(1), status: z.string().min(1) });

const idText = z.union([z.string().min(1), z.number()]).transform(String);
const publishResultBody = z.looseObject({
  platformUrl: z.string().min(1),
  platformId: idText,
  streamUrl: z.string().min(1).nullish(),
  streamKey: z.string().min(1).nullish(),
});
export interface PublishResult {
  platformUrl: string;
  platformId: string;
  streamUrl?: string;
  streamKey?: string;
}

const errorBody = z.looseObject({
  error: z.string(),
  code: z.string().optional(),
  details: z.unknown().optional(),
});

export interface CreateBroadcastRequest {
  name: string;
  description?: string;
  scheduledAt: string;
  channelId?: string;
  streamSource?: StreamSource;
  settings: BroadcastSettings;
}

/** What the gateway said went wrong, from its `{error, code, details?}` body when it sent one. */
export interface GatewayFailure {
  /** The gateway's code (spec §7 broadcast codes), or undefined when it sent none. */
  code: string | undefined;
  message: string;
  details?: unknown;
  /** HTTP status; undefined when no answer came. */
  status: number | undefined;
  /** A POST that got no answer may have had its effect. */
  outcomeUnknown: boolean;
}

export function describeGatewayError(error: PeerError): GatewayFailure {
  const body = errorBody.safeParse(error.details.body);
  const outcomeUnknown = error.details.outcomeUnknown === true;
  if (body.success) {
    return {
      code: body.data.code,
      message: body.data.error,
      ...(body.data.details !== undefined ? { details: body.data.details } : {}),
      status: error.status,
      outcomeUnknown,
    };
  }
  return { code: undefined, message: error.message, status: error.status, outcomeUnknown };
}

export interface GatewayClientOptions {
  url: string;
  apiKey?: string;
  onAttempt?: HttpClientOptions['onAttempt'];
  keyRefusedFor?: HttpClientOptions['keyRefusedFor'];
  timeoutMs?: number;
  /** Publishing may take a while (an upload is handed over): default 30 s. */
  publishTimeoutMs?: number;
}

const ONE_ATTEMPT = { attempts: 1, backoff: { baseMs: 0, maxMs: 0, jitter: 0 } };

export class GatewayClient {
  private readonly http: HttpClient;
  /** No in-request repeats for publishing: a second POST could publish twice. */
  private readonly publishHttp: HttpClient;
  private readonly probeHttp: HttpClient;

  constructor(options: GatewayClientOptions) {
    const common = {
      peer: 'gateway',
      baseUrl: options.url,
      ...(options.apiKey ? { headers: { Authorization: `Bearer ${options.apiKey}` } } : {}),
      ...(options.onAttempt ? { onAttempt: options.onAttempt } : {}),
      ...(options.keyRefusedFor ? { keyRefusedFor: options.keyRefusedFor } : {}),
      // One limiter for the gateway account, shared by broadcasts, publishing and the probe.
      limiter: new RateLimiter(10, 20),
    };
    this.http = new HttpClient({ ...common, timeoutMs: options.timeoutMs ?? 10_000 });
    this.publishHttp = new HttpClient({
      ...common,
      timeoutMs: options.publishTimeoutMs ?? 30_000,
      retry: ONE_ATTEMPT,
    });
    this.probeHttp = new HttpClient({ ...common, timeoutMs: 5_000, retry: ONE_ATTEMPT });
  }

  /** Peer health: the gateway has no credential check, so any HTTP answer means reachable. */
  async probe(): Promise<void> {
    await this.probeHttp.request({ method: 'GET', path: '/' });
  }

  /** POST /streamhost/broadcasts. `streamSource` is sent only when given. */
  async createBroadcast(request: CreateBroadcastRequest, idempotencyKey: string): Promise<CreatedBroadcast> {
    const body = {
      name: request.name,
      ...(request.description !== undefined ? { description: request.description } : {}),
      scheduledAt: request.scheduledAt,
      ...(request.channelId !== undefined ? { channelId: request.channelId } : {}),
      ...(request.streamSource ? { streamSource: request.streamSource } : {}),
      settings: request.settings,
    };
    return this.http.json(
      {
        method: 'POST',
        path: '/streamhost/broadcasts',
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
        timeoutMs: 15_000,
      },
      createdBroadcast,
    );
  }

  async deleteBroadcast(id: string): Promise<void> {
    await this.http.request({ method: 'DELETE', path: `/streamhost/broadcasts/${encodeURIComponent(id)}` });
  }

  /**
   * POST /streamhost/broadcasts/{id}/end (DESIGN §5.3): the host's transition to complete; the
   * broadcast stays. A gateway without the route answers 404 (the caller tells that apart).
   */
  async endBroadcast(id: string): Promise<{ id: string; status: string }> {
    return this.http.json(
      { method: 'POST', path: `/streamhost/broadcasts/${encodeURIComponent(id)}/end` },
      endedBroadcast,
    );
  }

  async getBroadcast(id: string): Promise<RemoteBroadcast> {
    const body = await this.http.json(
      { method: 'GET', path: `/streamhost/broadcasts/${encodeURIComponent(id)}` },
      broadcastBody,
    );
    return {
      id: body.id,
      name: body.name,
      status: body.status,
      viewerCount: body.viewerCount,
      startedAt: body.startedAt ?? null,
      streamHealth: body.streamHealth ?? null,
    };
  }

  /** POST {route path} with the PlatformPublish fields (DESIGN §5.3). Sent once; never repeated here. */
  async publish(
    path: string,
    fields: Record<string, unknown>,
    idempotencyKey: string,
  ): Promise<PublishResult> {
    const body = await this.publishHttp.json(
      { method: 'POST', path, body: fields, headers: { 'Idempotency-Key': idempotencyKey } },
      publishResultBody,
    );
    return {
      platformUrl: body.platformUrl,
      platformId: body.platformId,
      ...(body.streamUrl ? { streamUrl: body.streamUrl } : {}),
      ...(body.streamKey ? { streamKey: body.streamKey } : {}),
    };
  }
}
