import type { CompanionActionDefinitions, DropdownChoice } from '@companion-module/base';
import type { Arming } from './arming.js';
import type { BridgeClient } from './bridge-client.js';
import {
  formatPostTime,
  nextPost,
  onAir,
  postNowCandidates,
  type PostableNow,
  type Snapshot,
} from './snapshot.js';
import type { Source } from './sync.js';

export type ActionsSchema = {
  set_filename: { options: { filename: string; contentProductionId?: string } };
  filename_from_next_production: { options: Record<string, never> };
  add_mark: { options: { label: string } };
  end_broadcast: { options: { broadcast: string } };
  run_collection: { options: Record<string, never> };
  post_now: { options: { post: string } };
};

/** What the actions need of the module. */
export interface ActionDeps {
  client: () => BridgeClient | null;
  snapshot: Snapshot;
  arming: Arming;
  /** Reads these parts again so the action's change shows at once. */
  refresh: (sources: Source[]) => Promise<void>;
  log: (level: 'info' | 'warn', message: string) => void;
}

/** The dropdown's first choices: whatever is on air / the next post when pressed. */
export const ON_AIR = 'live';
export const NEXT_POST = 'next';

export function actionDefinitions(deps: ActionDeps, now: Date): CompanionActionDefinitions<ActionsSchema> {
  const need = (): BridgeClient => {
    const client = deps.client();
    if (!client) throw new Error('not connected: set the bridge URL and API key in the connection config');
    return client;
  };
  const fail = (what: string, error: unknown): never => {
    const message = `${what}: ${error instanceof Error ? error.message : String(error)}`;
    deps.log('warn', message);
    throw new Error(message, { cause: error });
  };

  const broadcastChoices: DropdownChoice<string>[] = [
    { id: ON_AIR, label: 'The broadcast on air now' },
    ...(deps.snapshot.broadcasts ?? [])
      .filter(
        (broadcast) =>
          broadcast.streamhostId !== null &&
          broadcast.status !== 'complete' &&
          broadcast.status !== 'revoked',
      )
      .map((broadcast) => ({
        id: broadcast.streamhostId!,
        label: `${broadcast.name} (${broadcast.status ?? 'unknown'})`,
      })),
  ];
  const postChoices: DropdownChoice<string>[] = [
    { id: NEXT_POST, label: 'The next post (the one the NEXT POST key names)' },
    ...postNowCandidates(deps.snapshot, now).map((post) => ({
      id: post.key,
      label: `${post.publishAt ? formatPostTime(post.publishAt, now) : '?'} ${post.post.slice(0, 40)}`,
    })),
  ];

  return {
    set_filename: {
      name: 'Recorder: set next filename',
      description: 'The name of the next recording; Companion variables are replaced before it is sent.',
      options: [
        { type: 'textinput', id: 'filename', label: 'Filename', default: '', useVariables: true },
        {
          type: 'textinput',
          id: 'contentProductionId',
          label: 'Production id (optional: the takes belong to it)',
          default: '',
          useVariables: true,
        },
      ],
      callback: async ({ options }) => {
        const contentProductionId = options.contentProductionId?.trim() ?? '';
        try {
          await need().post('/api/recorder/filename', {
            filename: options.filename.trim(),
            ...(contentProductionId ? { contentProductionId } : {}),
          });
        } catch (error) {
          fail('set filename', error);
        }
        await deps.refresh(['recorder']);
      },
    },
    filename_from_next_production: {
      name: 'Recorder: filename from the next scheduled production',
      description: "YYYYMMDD_<name> of the next ContentProduction in the CRM (the bridge's rule).",
      options: [],
      callback: async () => {
        try {
          const next = await need().get('/api/recorder/next-production');
          if (typeof next.filename !== 'string')
            throw new Error('no ContentProduction is scheduled from an hour ago on');
          // The takes recorded under this name belong to the production (issue #42.2).
          const production: unknown = next.production;
          const contentProductionId =
            typeof production === 'object' && production !== null && 'id' in production
              ? production.id
              : null;
          await need().post('/api/recorder/filename', {
            filename: next.filename,
            ...(typeof contentProductionId === 'string' ? { contentProductionId } : {}),
          });
        } catch (error) {
          fail('filename from the next production', error);
        }
        await deps.refresh(['recorder']);
      },
    },
    add_mark: {
      name: 'Recorder: add mark',
      description: 'Marks this moment of the take being recorded (clips use marks).',
      options: [
        { type: 'textinput', id: 'label', label: 'Label (optional)', default: '', useVariables: true },
      ],
      callback: async ({ options }) => {
        const label = options.label.trim();
        try {
          await need().post('/api/recorder/marks', label ? { label } : {});
        } catch (error) {
          fail('add mark', error);
        }
      },
    },
    end_broadcast: {
      name: 'Broadcast: end (press twice within 5 s)',
      description:
        'Public: ends the broadcast at the host. A first press arms (the armed feedback shows it), a second within 5 s ends it.',
      options: [
        { type: 'dropdown', id: 'broadcast', label: 'Broadcast', default: ON_AIR, choices: broadcastChoices },
      ],
      callback: async ({ options }) => {
        if (deps.arming.press(`end_broadcast:${options.broadcast}`) === 'armed') return;
        const target =
          options.broadcast === ON_AIR ? (onAir(deps.snapshot)?.streamhostId ?? null) : options.broadcast;
        try {
          if (target === null) throw new Error('no broadcast is on air');
          await need().post('/streamhost/end-broadcast', { broadcastId: target });
        } catch (error) {
          fail('end broadcast', error);
        }
        await deps.refresh(['broadcasts']);
      },
    },
    run_collection: {
      name: 'Analytics: run collection now',
      options: [],
      callback: async () => {
        try {
          await need().post('/analytics/collect');
        } catch (error) {
          fail('run collection', error);
        }
      },
    },
    post_now: {
      name: 'Posts: post now (press twice within 5 s)',
      description:
        'Public: publishes a scheduled post now instead of at its time. A first press arms, a second within 5 s posts. A CRM SocialPost is posted through its record (its time set to now); a post already live is never re-sent.',
      options: [{ type: 'dropdown', id: 'post', label: 'Post', default: NEXT_POST, choices: postChoices }],
      callback: async ({ options }) => {
        const at = new Date();
        const post =
          options.post === NEXT_POST
            ? nextPost(deps.snapshot, at)
            : (postNowCandidates(deps.snapshot, at).find((candidate) => candidate.key === options.post) ??
              null);
        if (post === null)
          return fail(
            'post now',
            new Error(
              options.post === NEXT_POST
                ? 'no scheduled post this bridge can post now (one scheduled at the provider outside the bridge goes out at its time)'
                : 'that post can no longer be posted now (already out, due, cancelled, or not scheduled by this bridge)',
            ),
          );
        // The press arms the post it names: if "the next post" changed within the window, the
        // second press arms that one instead of sending a post the first press did not name.
        const target = options.post === NEXT_POST ? `next:${post.key}` : post.key;
        if (deps.arming.press(`post_now:${target}`) === 'armed') return;
        try {
          await postNow(need(), post);
        } catch (error) {
          fail('post now', error);
        }
        await deps.refresh(['posts']);
      },
    },
  };
}

/**
 * Sends a scheduled post now through the bridge's public routes. A CRM post through its record
 * (`/api/posts/post-now`: the bridge calls the scheduled post back and sends it as a new
 * generation). An API post is called back with the live-safe cancel first — a post the provider
 * has just published answers 409 ALREADY_PUBLISHED and nothing is deleted or re-sent (DESIGN
 * §6.9); if the cancel fails, nothing is sent — then the same text, platforms and media are
 * published now under an idempotency key of the cancelled post, so a repeated press can never
 * publish it twice.
 */
async function postNow(client: BridgeClient, post: PostableNow): Promise<void> {
  const { postsvcId } = post;
  if (post.socialPostId !== null) {
    await client.post('/api/posts/post-now', { socialPostId: post.socialPostId });
    return;
  }
  await client.post('/api/posts/cancel', { id: postsvcId });
  await client.post('/postsvc/schedule', {
    post: post.post,
    platforms: post.platforms,
    mediaUrls: post.mediaUrls,
    shortenLinks: false,
    idempotencyKey: `companion-now-${postsvcId.replace(/[^A-Za-z0-9._:-]/g, '_')}`.slice(0, 100),
  });
}
