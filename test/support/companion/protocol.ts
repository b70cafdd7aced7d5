/**
 * What the Companion test host (host.ts, a Node 22 child) and the tests (client.ts) say to each
 * other over the child's IPC channel. Times are `performance.timeOrigin + performance.now()`:
 * milliseconds since the epoch, comparable between the two processes on one machine.
 */
export type HostCommand =
  | { cmd: 'init'; config: Record<string, string>; secrets: Record<string, string> }
  | { cmd: 'configUpdated'; config: Record<string, string>; secrets: Record<string, string> }
  | { cmd: 'addFeedback'; id: string; feedbackId: string; options: Record<string, unknown> }
  | { cmd: 'runAction'; actionId: string; options: Record<string, unknown> }
  | { cmd: 'definitions' }
  | { cmd: 'destroy' };

export interface Definitions {
  actions: Record<
    string,
    {
      name: string;
      options: Array<{ id: string; type: string; choices?: Array<{ id: unknown; label: string }> }>;
    }
  >;
  feedbacks: string[];
  variables: string[];
  presets: { structure: unknown[]; definitions: Record<string, unknown> };
}

export type HostMessage =
  | { kind: 'reply'; seq: number; ok: true; value: unknown }
  | { kind: 'reply'; seq: number; ok: false; error: string }
  | { kind: 'status'; status: string; message: string | null; at: number }
  | { kind: 'variables'; values: Record<string, unknown>; at: number }
  | { kind: 'feedback'; id: string; value: unknown; at: number }
  | { kind: 'log'; level: string; message: string; at: number };

export const now = (): number => performance.timeOrigin + performance.now();

/** The connection's label in the test host: its variables are `$(bridge:<id>)`. */
export const CONNECTION_LABEL = 'bridge';
