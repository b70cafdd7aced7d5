import { randomInt } from 'node:crypto';
import { z } from 'zod';
import { startPeer, type ControlKeyOption, type SandboxPeerBase } from '../common/peer.js';
import { createPrng, LOWER_ALNUM } from '../common/prng.js';
import { TimerSet } from '../common/timers.js';
import type { HasWorld } from '../common/world.js';
import { uiUser } from './auth.js';
import { CrmError } from './errors.js';
import { crmEntityNames, type CrmEntityName } from './entities.js';
import { serverSideHooks, type CrmNotification } from './hooks.js';
import { crmRestRouter } from './rest.js';
import { CrmStore, type CrmRecord } from './store.js';
import {
  crmWebhookEvents,
  WebhookSender,
  type WebhookDelivery,
  type WebhookSubscription,
  type WebhookTargetOptions,
} from './webhooks.js';

export interface SandboxCrmOptions extends ControlKeyOption {
  apiKey?: string;
  username?: string;
  password?: string;
  now?: () => Date;
  /** Seed of the id generator (default: random, so ids differ between runs as a real CRM's do). */
  seed?: number;
  /** Where the loud "webhook deleted" message goes (default console.warn). */
  warn?: (message: string) => void;
}

export interface SandboxCrm extends SandboxPeerBase, HasWorld {
  /** Base URL without /api/v1. */
  readonly url: string;
  readonly apiKey: string;
  readonly username: string;
  readonly password: string;
  /** Direct API (a person in the CRM's UI): same code path as REST, so hooks and webhooks fire. */
  create(entity: CrmEntityName, attrs: Record<string, unknown>): CrmRecord;
  update(entity: CrmEntityName, id: string, attrs: Record<string, unknown>): CrmRecord;
  remove(entity: CrmEntityName, id: string): void;
  get(entity: CrmEntityName, id: string): CrmRecord | undefined;
  list(entity: CrmEntityName): CrmRecord[];
  setWebhookTarget(target: WebhookTargetOptions): void;
  clearWebhookTarget(): void;
  /** The receiver is away (the bridge stopped): deliveries are refused and retried by EspoCRM's rules. */
  setReceiverAway(away: boolean): void;
  /** Points the webhooks at another base URL; waiting retries keep their tries. */
  retargetWebhooks(baseUrl: string): void;
  /** Sends gathered batches and waiting retries now (one attempt each) and waits for the answers. */
  flushWebhooks(): Promise<void>;
  deliveries(): WebhookDelivery[];
  webhookSubscriptions(): WebhookSubscription[];
  notifications(): CrmNotification[];
}

const webhookTargetBody = z.strictObject({
  baseUrl: z.url(),
  secret: z.string().min(1),
  webhookIds: z
    .partialRecord(z.enum(crmWebhookEvents), z.string().min(1))
    .refine(
      (ids) => new Set(Object.values(ids)).size === Object.keys(ids).length,
      'each webhook has its own id',
    )
    .optional(),
  deliveryDelayMs: z.number().int().min(0).optional(),
  retryDelayMs: z.number().int().min(0).optional(),
  legacySignature: z.boolean().optional(),
  timeoutMs: z.number().int().min(1).optional(),
  events: z.array(z.enum(crmWebhookEvents)).optional(),
});

const receiverAwayBody = z.strictObject({ away: z.boolean() });

/** A simulated EspoCRM (DESIGN §5.1) on 127.0.0.1 with an OS-chosen port. */
export async function startSandboxCrm(options: SandboxCrmOptions = {}): Promise<SandboxCrm> {
  const now = options.now ?? (() => new Date());
  const prng = createPrng(options.seed ?? randomInt(2 ** 31));
  const randomChars = (length: number): string => prng.chars(length, LOWER_ALNUM);
  const apiKey = options.apiKey ?? `crm-${randomChars(24)}`;
  const username = options.username ?? 'admin';
  const password = options.password ?? `pw-${randomChars(16)}`;
  const timers = new TimerSet();
  const notifications: CrmNotification[] = [];

  const webhooks = new WebhookSender({
    now,
    timers,
    newWebhookId: () => now().getTime().toString(36).padStart(9, '0').slice(-9) + randomChars(8),
    warn: options.warn ?? ((message) => console.warn(message)),
  });
  const hooks = serverSideHooks(
    () => store,
    (notification) => notifications.push({ ...notification, at: now().toISOString() }),
  );
  const store: CrmStore = new CrmStore({
    now,
    randomChars,
    onWrite: (event) => {
      webhooks.enqueue(event);
      hooks(event);
    },
  });

  const peer = await startPeer(timers, {
    controlKey: options.controlKey,
    routes: (app) => {
      app.set('query parser', 'extended');
      app.use('/api/v1', crmRestRouter(store, { apiKey, username, password }));
      app.use((_req, res) => {
        res.status(404).set('X-Status-Reason', 'Not found').end();
      });
    },
    control: (router) => {
      router.get('/deliveries', (_req, res) => {
        res.json({ deliveries: webhooks.deliveries() });
      });
      router.get('/notifications', (_req, res) => {
        res.json({ notifications });
      });
      router.get('/records/:entity', (req, res) => {
        const entity = String(req.params.entity);
        if (!(crmEntityNames as readonly string[]).includes(entity)) {
          res.status(404).json({ error: `unknown entity ${entity}` });
          return;
        }
        res.json({ list: store.all(entity as CrmEntityName) });
      });
      // A person creating a record in the CRM's UI (for tests driving the sandbox over HTTP):
      // the same path as crm.create, so hooks and webhooks fire.
      router.post('/records/:entity', (req, res) => {
        const entity = String(req.params.entity);
        if (!(crmEntityNames as readonly string[]).includes(entity)) {
          res.status(404).json({ error: `unknown entity ${entity}` });
          return;
        }
        try {
          res.json(store.create(entity as CrmEntityName, req.body, uiUser));
        } catch (error) {
          if (!(error instanceof CrmError)) throw error;
          res.status(error.status).json({ error: error.reason });
        }
      });
      router.post('/webhook-target', (req, res) => {
        const parsed = webhookTargetBody.safeParse(req.body);
        if (!parsed.success) {
          res.status(400).json({ error: z.prettifyError(parsed.error) });
          return;
        }
        webhooks.setTarget(parsed.data);
        res.json({ subscriptions: webhooks.subscriptions() });
      });
      router.delete('/webhook-target', (_req, res) => {
        webhooks.clearTarget();
        res.json({ subscriptions: [] });
      });
      router.post('/receiver-away', (req, res) => {
        const parsed = receiverAwayBody.safeParse(req.body);
        if (!parsed.success) {
          res.status(400).json({ error: z.prettifyError(parsed.error) });
          return;
        }
        webhooks.setReceiverAway(parsed.data.away);
        res.json({ away: parsed.data.away });
      });
      router.post('/flush-webhooks', async (_req, res) => {
        await webhooks.flush();
        res.json({ deliveries: webhooks.deliveries().length });
      });
    },
    state: () => ({
      peer: 'crm',
      records: Object.fromEntries(crmEntityNames.map((entity) => [entity, store.all(entity).length])),
      webhooks: webhooks.subscriptions(),
      pendingItems: webhooks.pendingItems(),
      deliveries: webhooks.deliveries().length,
      notifications: notifications.length,
    }),
    onStop: () => webhooks.stop(),
  });

  return {
    ...peer,
    // Records and the notifications hooks sent; webhook targets and deliveries are the runtime's.
    world: { records: store.world, notifications },
    apiKey,
    username,
    password,
    create: (entity, attrs) => store.create(entity, attrs, uiUser),
    update: (entity, id, attrs) => store.update(entity, id, attrs, uiUser),
    remove: (entity, id) => store.remove(entity, id, uiUser),
    get: (entity, id) => store.get(entity, id),
    list: (entity) => store.all(entity),
    setWebhookTarget: (target) => webhooks.setTarget(target),
    clearWebhookTarget: () => webhooks.clearTarget(),
    setReceiverAway: (away) => webhooks.setReceiverAway(away),
    retargetWebhooks: (baseUrl) => webhooks.retarget(baseUrl),
    flushWebhooks: () => webhooks.flush(),
    deliveries: () => webhooks.deliveries(),
    webhookSubscriptions: () => webhooks.subscriptions(),
    notifications: () => notifications.map((n) => ({ ...n })),
  };
}

export { signEspoWebhook } from './signature.js';
export { phpJsonEncode } from './php-json.js';
export { toCrmDatetime } from './wire-format.js';
export type { CrmRecord } from './store.js';
export type { CrmEntityName } from './entities.js';
export type {
  WebhookDelivery,
  WebhookSubscription,
  WebhookTargetOptions,
  CrmWebhookEvent,
} from './webhooks.js';
export type { CrmNotification } from './hooks.js';
