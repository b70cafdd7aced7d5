import type { CrmEntityName } from './entities.js';
import { phpJsonEncode } from './php-json.js';
import { signEspoWebhook } from './signature.js';
import type { WriteAction, WriteEvent } from './store.js';
import type { TimerSet } from '../common/timers.js';

/** The eleven events of spec §4.7, each its own EspoCRM webhook. */
export const crmWebhookEvents = [
  'guest-created',
  'guest-updated',
  'content-created',
  'content-updated',
  'platform-created',
  'platform-updated',
  'clip-created',
  'clip-updated',
  'social-created',
  'social-updated',
  'social-deleted',
] as const;
export type CrmWebhookEvent = (typeof crmWebhookEvents)[number];

const eventPrefix: Partial<Record<CrmEntityName, string>> = {
  GuestBooking: 'guest',
  ContentProduction: 'content',
  PlatformPublish: 'platform',
  Clip: 'clip',
  SocialPost: 'social',
};
const actionSuffix: Record<WriteAction, string> = { create: 'created', update: 'updated', delete: 'deleted' };

function eventName(entity: CrmEntityName, action: WriteAction): CrmWebhookEvent | undefined {
  const prefix = eventPrefix[entity];
  const name = prefix && `${prefix}-${actionSuffix[action]}`;
  return (crmWebhookEvents as readonly string[]).includes(name ?? '') ? (name as CrmWebhookEvent) : undefined;
}

export interface WebhookTargetOptions {
  /** The receiver's base; events go to `${baseUrl}/webhooks/${event}`. */
  baseUrl: string;
  secret: string;
  /**
   * Each webhook's id, by event. EspoCRM gives every webhook (one per event and URL) its own id,
   * and the bridge binds an id to the route it first signed for (DESIGN §7), so ids must differ;
   * an event left out gets a fresh EspoCRM-style id.
   */
  webhookIds?: Partial<Record<CrmWebhookEvent, string>>;
  /** How long events of one type are gathered into a batch. The real CRM: 2-5 minutes. */
  deliveryDelayMs?: number;
  /** Wait before a retry. The real CRM: 10 minutes. */
  retryDelayMs?: number;
  /** Send `X-Signature` (raw HMAC bytes), as older EspoCRM versions do. */
  legacySignature?: boolean;
  /** The sender's timeout (EspoCRM: 10 s), after which the attempt counts as 408. */
  timeoutMs?: number;
  /** Subscribe only these events (default: all eleven). */
  events?: CrmWebhookEvent[];
}

export interface WebhookSubscription {
  event: CrmWebhookEvent;
  webhookId: string;
  url: string;
  active: boolean;
  /** Set when the receiver answered 410: EspoCRM deletes the webhook. */
  deletedAt: string | null;
}

export type DeliveryOutcome = 'delivered' | 'retry' | 'dropped' | 'gave-up' | 'webhook-deleted';

export interface WebhookDelivery {
  event: CrmWebhookEvent;
  webhookId: string;
  url: string;
  attempt: number;
  /** HTTP status; 408 for the sender's timeout, 0 when no connection could be made. */
  status: number;
  /** The exact bytes sent (PHP-style JSON). */
  body: string;
  items: number;
  at: string;
  /** How long the receiver took to answer (or to fail), by the sender's own watch. */
  ms: number;
  outcome: DeliveryOutcome;
  error?: string;
}

const MAX_BATCH = 50;
const MAX_ATTEMPTS = 4;
// EspoCRM's sender retries these (0: no connection); other 4xx, 502, 504 are dropped.
const RETRIED = new Set([0, 401, 403, 404, 405, 408, 500, 503]);

interface Subscription extends WebhookSubscription {
  secret: string;
  legacySignature: boolean;
  deliveryDelayMs: number;
  retryDelayMs: number;
  timeoutMs: number;
}

interface Batch {
  sub: Subscription;
  rawBody: string;
  items: number;
  attempt: number;
  retryTimer?: NodeJS.Timeout;
}

export interface WebhookSenderOptions {
  now: () => Date;
  timers: TimerSet;
  newWebhookId: () => string;
  warn: (message: string) => void;
}

/**
 * EspoCRM's webhook sender: events gathered per type, sent as PHP-encoded JSON arrays of
 * up to 50 items, signed, retried by EspoCRM's rules, the webhook deleted on 410.
 */
export class WebhookSender {
  readonly #subs = new Map<CrmWebhookEvent, Subscription>();
  readonly #pending = new Map<CrmWebhookEvent, { items: Record<string, unknown>[]; timer: NodeJS.Timeout }>();
  readonly #waiting = new Set<Batch>();
  readonly #inflight = new Set<Promise<void>>();
  readonly #aborts = new Set<AbortController>();
  readonly #deliveries: WebhookDelivery[] = [];
  /** The receiver is off (the desktop app closed at night): every attempt finds no one to answer. */
  #receiverAway = false;

  constructor(private readonly options: WebhookSenderOptions) {}

  /**
   * Away: attempts are refused as a stopped bridge refuses them (no connection, status 0), and
   * retried by EspoCRM's rules until its four tries are spent. Back: later attempts are sent.
   */
  setReceiverAway(away: boolean): void {
    this.#receiverAway = away;
  }

  /**
   * Points every webhook at a new base URL, as an admin editing the webhooks would (a bridge
   * that came back on another port); gathered batches and waiting retries keep their tries.
   */
  retarget(baseUrl: string): void {
    const base = baseUrl.replace(/\/+$/, '');
    for (const sub of this.#subs.values()) sub.url = `${base}/webhooks/${sub.event}`;
  }

  setTarget(target: WebhookTargetOptions): void {
    const ids = Object.values(target.webhookIds ?? {});
    if (new Set(ids).size !== ids.length)
      throw new Error(`webhookIds: each webhook has its own id (${ids.join(', ')})`);
    this.clearTarget();
    const base = target.baseUrl.replace(/\/+$/, '');
    for (const event of target.events ?? crmWebhookEvents) {
      this.#subs.set(event, {
        event,
        webhookId: target.webhookIds?.[event] ?? this.options.newWebhookId(),
        url: `${base}/webhooks/${event}`,
        active: true,
        deletedAt: null,
        secret: target.secret,
        legacySignature: target.legacySignature ?? false,
        deliveryDelayMs: target.deliveryDelayMs ?? 300,
        retryDelayMs: target.retryDelayMs ?? 600_000,
        timeoutMs: target.timeoutMs ?? 10_000,
      });
    }
  }

  /** Unsubscribes everything; queued batches and waiting retries are dropped. */
  clearTarget(): void {
    for (const pending of this.#pending.values()) this.options.timers.clear(pending.timer);
    this.#pending.clear();
    for (const batch of this.#waiting) if (batch.retryTimer) this.options.timers.clear(batch.retryTimer);
    this.#waiting.clear();
    this.#subs.clear();
  }

  subscriptions(): WebhookSubscription[] {
    return [...this.#subs.values()].map(({ event, webhookId, url, active, deletedAt }) => ({
      event,
      webhookId,
      url,
      active,
      deletedAt,
    }));
  }

  deliveries(): WebhookDelivery[] {
    return this.#deliveries.map((delivery) => ({ ...delivery }));
  }

  /** Items still gathered for a batch, per event. */
  pendingItems(): Partial<Record<CrmWebhookEvent, number>> {
    return Object.fromEntries([...this.#pending].map(([event, pending]) => [event, pending.items.length]));
  }

  /** A write happened: its item joins the batch of its event, if that webhook exists. */
  enqueue(write: WriteEvent): void {
    const event = eventName(write.entity, write.action);
    const sub = event && this.#subs.get(event);
    if (!event || !sub?.active) return;
    const pending = this.#pending.get(event);
    if (pending) {
      pending.items.push(structuredClone(write.item));
      return;
    }
    const timer = this.options.timers.set(() => this.#dispatch(event), sub.deliveryDelayMs);
    this.#pending.set(event, { items: [structuredClone(write.item)], timer });
  }

  /**
   * Sends every gathered batch and every waiting retry now, one attempt each, and resolves
   * when those attempts have been answered. A failed attempt is rescheduled as usual.
   */
  async flush(): Promise<void> {
    for (const event of [...this.#pending.keys()]) this.#dispatch(event);
    for (const batch of [...this.#waiting]) {
      if (batch.retryTimer) this.options.timers.clear(batch.retryTimer);
      this.#waiting.delete(batch);
      this.#attempt(batch);
    }
    await Promise.all([...this.#inflight]);
  }

  /** Aborts attempts in flight (not recorded); timers are cleared by the peer. */
  stop(): void {
    for (const controller of this.#aborts) controller.abort();
    this.clearTarget();
  }

  #dispatch(event: CrmWebhookEvent): void {
    const pending = this.#pending.get(event);
    const sub = this.#subs.get(event);
    if (!pending) return;
    this.options.timers.clear(pending.timer);
    this.#pending.delete(event);
    if (!sub?.active) return;
    for (let i = 0; i < pending.items.length; i += MAX_BATCH) {
      const items = pending.items.slice(i, i + MAX_BATCH);
      this.#attempt({ sub, rawBody: phpJsonEncode(items), items: items.length, attempt: 0 });
    }
  }

  #attempt(batch: Batch): void {
    if (!batch.sub.active) return;
    batch.attempt += 1;
    const running = this.#send(batch).finally(() => this.#inflight.delete(running));
    this.#inflight.add(running);
  }

  async #send(batch: Batch): Promise<void> {
    const { sub } = batch;
    const signature = signEspoWebhook(batch.rawBody, sub.webhookId, sub.secret, sub.legacySignature);
    if (this.#receiverAway) {
      await Promise.resolve(); // a refused connection is still an answer that comes later
      this.#record(batch, 0, 'connection refused (the receiver is away)', 0);
      return;
    }
    const controller = new AbortController();
    this.#aborts.add(controller);
    const started = performance.now();
    let status: number;
    let error: string | undefined;
    try {
      const response = await fetch(sub.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', [signature.header]: signature.value },
        body: batch.rawBody,
        redirect: 'manual',
        signal: AbortSignal.any([controller.signal, AbortSignal.timeout(sub.timeoutMs)]),
      });
      status = response.status;
      await response.arrayBuffer().catch(() => undefined);
    } catch (err) {
      if (controller.signal.aborted) return;
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      status = timedOut ? 408 : 0;
      error = timedOut ? `no answer within ${sub.timeoutMs} ms` : describe(err);
    } finally {
      this.#aborts.delete(controller);
    }
    this.#record(batch, status, error, performance.now() - started);
  }

  /** Logs one attempt and decides what follows it: a retry in `retryDelayMs`, or the end. */
  #record(batch: Batch, status: number, error: string | undefined, ms: number): void {
    const { sub } = batch;
    const outcome = this.#outcome(batch, status);
    this.#deliveries.push({
      event: sub.event,
      webhookId: sub.webhookId,
      url: sub.url,
      attempt: batch.attempt,
      status,
      body: batch.rawBody,
      items: batch.items,
      at: this.options.now().toISOString(),
      ms,
      outcome,
      ...(error ? { error } : {}),
    });
    if (outcome === 'retry') {
      batch.retryTimer = this.options.timers.set(() => {
        this.#waiting.delete(batch);
        this.#attempt(batch);
      }, sub.retryDelayMs);
      this.#waiting.add(batch);
    }
    if (outcome === 'webhook-deleted') this.#deleteWebhook(sub);
  }

  #outcome(batch: Batch, status: number): DeliveryOutcome {
    if (status >= 200 && status < 400) return 'delivered';
    if (status === 410) return 'webhook-deleted';
    if (RETRIED.has(status)) return batch.attempt < MAX_ATTEMPTS ? 'retry' : 'gave-up';
    return 'dropped';
  }

  /** What EspoCRM does on 410. Loud: a receiver that answers 410 silently loses every later event. */
  #deleteWebhook(sub: Subscription): void {
    if (!sub.active) return;
    sub.active = false;
    sub.deletedAt = this.options.now().toISOString();
    const pending = this.#pending.get(sub.event);
    if (pending) this.options.timers.clear(pending.timer);
    this.#pending.delete(sub.event);
    for (const batch of this.#waiting) {
      if (batch.sub !== sub) continue;
      if (batch.retryTimer) this.options.timers.clear(batch.retryTimer);
      this.#waiting.delete(batch);
    }
    this.options.warn(
      `[sandbox crm] ${sub.url} answered 410 Gone: webhook ${sub.webhookId} (${sub.event}) is DELETED, ` +
        `no more ${sub.event} events will be sent. Never answer 410 to EspoCRM.`,
    );
  }
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
    return `${err.message}${cause}`;
  }
  return String(err);
}
