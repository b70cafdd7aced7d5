import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeFromRegistry } from '../node-binary.js';
import { eventually, type Truthy } from '../wait.js';
import type { Definitions, HostCommand, HostMessage } from './protocol.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The Node the module runs on (@companion-module/base 2.x needs ≥ 22.20; DESIGN §5.6). */
export const COMPANION_NODE_VERSION = '22.23.3';
export const MODULE_ENTRY = path.join(root, 'integrations', 'companion', 'src', 'main.ts');
export { CONNECTION_LABEL } from './protocol.js';

type Distribute<T> = T extends unknown ? Omit<T, 'cmd'> : never;
type ArgsOf<C extends HostCommand['cmd']> = Distribute<Extract<HostCommand, { cmd: C }>>;

export interface CompanionHost {
  /** Every status the module reported, in order. */
  readonly statuses: Array<{ status: string; message: string | null; at: number }>;
  readonly variables: Record<string, unknown>;
  /** The placed feedbacks' current values, by instance id. */
  readonly feedbacks: Record<string, unknown>;
  readonly logs: string[];
  status(): { status: string; message: string | null } | null;
  init(url: string, apiKey: string): Promise<void>;
  configUpdated(url: string, apiKey: string): Promise<void>;
  /** Places a feedback on a button (instance `id`) and answers its first value. */
  addFeedback(id: string, feedbackId: string, options?: Record<string, unknown>): Promise<unknown>;
  runAction(actionId: string, options?: Record<string, unknown>): Promise<void>;
  definitions(): Promise<Definitions>;
  /** Waits until `check` holds on the host's state (variables, feedbacks, statuses). */
  until<T>(check: (host: CompanionHost) => T, timeoutMs?: number): Promise<Truthy<T>>;
  /** Called with every message from the host (the bench times them). */
  onMessage(listener: (message: HostMessage) => void): () => void;
  close(): Promise<void>;
}

/** Forks the Companion test host on Node 22 (from the registry) with the module loaded. */
export function startCompanionHost(entry = MODULE_ENTRY): CompanionHost {
  const child: ChildProcess = fork(path.join(root, 'test/support/companion/host.ts'), [entry], {
    cwd: root,
    execPath: nodeFromRegistry(COMPANION_NODE_VERSION),
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const statuses: CompanionHost['statuses'] = [];
  const variables: Record<string, unknown> = {};
  const feedbacks: Record<string, unknown> = {};
  const logs: string[] = [];
  const listeners = new Set<(message: HostMessage) => void>();
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let seq = 0;
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout!.on('data', (chunk: Buffer) => logs.push(chunk.toString().trim()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', (code) => {
    for (const { reject } of pending.values())
      reject(new Error(`the Companion host exited (${code}): ${stderr}`));
    pending.clear();
  });

  child.on('message', (message: HostMessage) => {
    switch (message.kind) {
      case 'reply': {
        const waiting = pending.get(message.seq);
        pending.delete(message.seq);
        if (message.ok) waiting?.resolve(message.value);
        else waiting?.reject(new Error(message.error));
        break;
      }
      case 'status':
        statuses.push({ status: message.status, message: message.message, at: message.at });
        break;
      case 'variables':
        Object.assign(variables, message.values);
        break;
      case 'feedback':
        feedbacks[message.id] = message.value;
        break;
      case 'log':
        logs.push(`${message.level}: ${message.message}`);
        break;
    }
    for (const listener of listeners) listener(message);
  });

  function request<C extends HostCommand['cmd']>(cmd: C, args: ArgsOf<C>): Promise<unknown> {
    const id = ++seq;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      child.send({ ...args, cmd, seq: id });
    });
  }

  const host: CompanionHost = {
    statuses,
    variables,
    feedbacks,
    logs,
    status: () => statuses.at(-1) ?? null,
    init: async (url, apiKey) => void (await request('init', { config: { url }, secrets: { apiKey } })),
    configUpdated: async (url, apiKey) =>
      void (await request('configUpdated', { config: { url }, secrets: { apiKey } })),
    addFeedback: (id, feedbackId, options = {}) => request('addFeedback', { id, feedbackId, options }),
    runAction: async (actionId, options = {}) => void (await request('runAction', { actionId, options })),
    definitions: async () => (await request('definitions', {})) as Definitions,
    until: (check, timeoutMs = 10_000) => eventually(() => check(host), timeoutMs, 10),
    onMessage: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      if (child.exitCode === null && child.connected) await request('destroy', {}).catch(() => undefined);
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
  return host;
}
