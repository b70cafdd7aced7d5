import type { Response } from 'express';
import type { StoredActivityEvent } from '../../shared/api/activity.js';
import type { ActivityLog } from '../kernel/activity/activity-log.js';

/** GET /events: Server-Sent Events fed by the activity log. Closed on shutdown. */
export class EventStreamHub {
  private readonly clients = new Set<Response>();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly unsubscribe: () => void;

  constructor(activity: ActivityLog) {
    this.unsubscribe = activity.subscribe((event) => this.broadcast(event));
    // Proxies and tunnels drop silent connections; a comment line every 15 s keeps them open.
    this.heartbeat = setInterval(() => this.clients.forEach((res) => res.write(': ping\n\n')), 15_000);
    this.heartbeat.unref();
  }

  attach(res: Response): void {
    res.status(200).set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    res.write('retry: 3000\n: connected\n\n');
    this.clients.add(res);
    res.on('close', () => this.clients.delete(res));
  }

  get size(): number {
    return this.clients.size;
  }

  close(): void {
    clearInterval(this.heartbeat);
    this.unsubscribe();
    for (const res of this.clients) res.end();
    this.clients.clear();
  }

  private broadcast(event: StoredActivityEvent): void {
    const frame = `id: ${event.id}\nevent: activity\ndata: ${JSON.stringify(event)}\n\n`;
    for (const res of this.clients) res.write(frame);
  }
}
