import express, { type Request, type Response } from 'express';
import { z } from 'zod';
import { startPeer, type ControlKeyOption, type SandboxPeerBase } from '../common/peer.js';
import { TimerSet } from '../common/timers.js';
import type { HasWorld } from '../common/world.js';

/** The guest workflows of spec §3.3, registered and active by default. */
export const defaultWorkflows = [
  'guest-confirmed',
  'guest-scheduled',
  'guest-recorded',
  'guest-published',
] as const;

export interface SandboxAutomationOptions extends ControlKeyOption {
  /** `Name: value`: webhooks then require this header (n8n "Header Auth"). Default: none. */
  authHeader?: string;
  /** Registered workflows and whether each is active (default: the four guest workflows, active). */
  workflows?: Record<string, boolean>;
  now?: () => Date;
}

export interface ReceivedRun {
  workflow: string;
  body: unknown;
  /** Lower-case names; the auth header's value is masked. */
  headers: Record<string, string>;
  at: string;
}

export interface SandboxAutomation extends SandboxPeerBase, HasWorld {
  /** The auth header's value ('' when none is required). */
  readonly apiKey: string;
  /** The configured `Name: value` header, if any. */
  readonly authHeader: string | null;
  received(): ReceivedRun[];
  clearReceived(): void;
  /** Registers the workflow if needed. */
  setWorkflowActive(name: string, active: boolean): void;
  workflows(): Array<{ name: string; active: boolean }>;
}

const workflowBody = z.strictObject({ name: z.string().min(1), active: z.boolean() });

/** A simulated n8n (DESIGN §5.4): `POST /webhook/:name` starts a workflow, inactive ones 404. */
export async function startSandboxAutomation(
  options: SandboxAutomationOptions = {},
): Promise<SandboxAutomation> {
  const now = options.now ?? (() => new Date());
  const timers = new TimerSet();
  const workflows = new Map<string, boolean>(
    Object.entries(options.workflows ?? Object.fromEntries(defaultWorkflows.map((name) => [name, true]))),
  );
  const received: ReceivedRun[] = [];
  const auth = parseAuthHeader(options.authHeader);

  const handle = (req: Request, res: Response): void => {
    const name = String(req.params.name);
    if (req.method !== 'POST' || !workflows.get(name)) {
      // n8n's answer for a webhook that is not registered (or whose workflow is inactive).
      const message =
        req.method !== 'POST' && workflows.get(name)
          ? `This webhook is not registered for ${req.method} requests. Did you mean to make a POST request?`
          : `The requested webhook "${req.method} ${name}" is not registered.`;
      res.status(404).json({
        code: 404,
        message,
        hint: "Click the 'Execute workflow' button on the canvas, then try again. (In test mode, the webhook only works for one call after you click this button)",
      });
      return;
    }
    if (auth) {
      const value = req.get(auth.name);
      if (value === undefined) {
        res.status(401).json({ code: 401, message: 'Authorization is required!' });
        return;
      }
      if (value !== auth.value) {
        res.status(403).json({ code: 403, message: 'Authorization data is wrong!' });
        return;
      }
    }
    received.push({
      workflow: name,
      body: req.body ?? null,
      headers: recordedHeaders(req, auth?.name),
      at: now().toISOString(),
    });
    res.json({ message: 'Workflow was started' });
  };

  const peer = await startPeer(timers, {
    controlKey: options.controlKey,
    routes: (app) => {
      app.use(express.json({ limit: '16mb' }));
      app.all('/webhook/:name', handle);
      // n8n's liveness route, as the real one answers it (no credentials asked).
      app.get('/healthz', (_req, res) => {
        res.json({ status: 'ok' });
      });
      app.use((req, res) => {
        res.status(404).json({ code: 404, message: `Cannot ${req.method} ${req.path}` });
      });
      app.use((err: unknown, _req: Request, res: Response, _next: express.NextFunction) => {
        const status = (err as { status?: number }).status ?? 500;
        res.status(status).json({ code: status, message: err instanceof Error ? err.message : 'error' });
      });
    },
    control: (router) => {
      router.get('/received', (_req, res) => {
        res.json({ received });
      });
      router.delete('/received', (_req, res) => {
        received.length = 0;
        res.json({ cleared: true });
      });
      router.post('/workflows', (req, res) => {
        const parsed = workflowBody.safeParse(req.body);
        if (!parsed.success) {
          res.status(400).json({ error: z.prettifyError(parsed.error) });
          return;
        }
        workflows.set(parsed.data.name, parsed.data.active);
        res.json({ workflows: listWorkflows(workflows) });
      });
    },
    state: () => ({ peer: 'automation', workflows: listWorkflows(workflows), received: received.length }),
  });

  return {
    ...peer,
    // Which workflows are active and the runs they received.
    world: { workflows, received },
    apiKey: auth?.value ?? '',
    authHeader: options.authHeader ?? null,
    received: () => received.map((run) => structuredClone(run)),
    clearReceived: () => {
      received.length = 0;
    },
    setWorkflowActive: (name, active) => {
      workflows.set(name, active);
    },
    workflows: () => listWorkflows(workflows),
  };
}

function parseAuthHeader(header: string | undefined): { name: string; value: string } | null {
  if (header === undefined || header.trim() === '') return null;
  const colon = header.indexOf(':');
  if (colon <= 0) throw new Error(`authHeader must look like "Name: value", got "${header}"`);
  return { name: header.slice(0, colon).trim(), value: header.slice(colon + 1).trim() };
}

function recordedHeaders(req: Request, authName: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    const secret = name === 'authorization' || name === authName?.toLowerCase();
    out[name] = secret ? `••••${text.slice(-4)}` : text;
  }
  return out;
}

function listWorkflows(workflows: Map<string, boolean>): Array<{ name: string; active: boolean }> {
  return [...workflows].map(([name, active]) => ({ name, active }));
}
