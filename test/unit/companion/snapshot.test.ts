import { describe, expect, it } from 'vitest';
import { parseFrame } from '../../../integrations/companion/src/event-stream.js';
import {
  emptySnapshot,
  formatPostTime,
  nextPost,
  peersDown,
  postNowCandidates,
  readHealth,
  readPosts,
  readRecorder,
  takeNumber,
  type PostPart,
} from '../../../integrations/companion/src/snapshot.js';
import { sourcesOf } from '../../../integrations/companion/src/sync.js';
import { fileNameOf, variableValues } from '../../../integrations/companion/src/variables.js';

const post = (over: Partial<PostPart>): PostPart => ({
  key: 'api:1',
  ledgerId: 1,
  socialPostId: null,
  postsvcId: 'p1',
  status: 'scheduled',
  post: 'text',
  platforms: ['microblog'],
  mediaUrls: [],
  publishAt: '2026-05-04T12:00:00.000Z',
  ...over,
});

describe('reading the bridge’s answers', () => {
  it('reads garbage as unknown, never throws', () => {
    expect(readRecorder({ filename: 'x', connection: 3 })).toEqual({
      filename: null,
      requested: null,
      state: null,
      failure: null,
      configured: false,
      connected: false,
      recording: false,
    });
    expect(readPosts({ data: [null, { key: 1 }, { key: 'api:2', ledgerId: 'x' }], quota: null })).toEqual({
      posts: [expect.objectContaining({ key: 'api:2', ledgerId: null, status: 'unknown', platforms: [] })],
      postsLeft: null,
    });
  });

  it('a peer is down when configured and unreachable; an unchecked one (null) is not', () => {
    const health = readHealth({
      peers: {
        crm: { configured: true, reachable: false },
        postsvc: { configured: true, reachable: null },
        gateway: { configured: false, reachable: false },
      },
    });
    expect(health.peersDown).toEqual(['crm']);
    const snapshot = { ...emptySnapshot(), health, recorder: { ...readRecorder({}), configured: true } };
    expect(peersDown(snapshot)).toEqual(['crm', 'recorder']);
  });

  it("the recorder is named once: /health's obs entry is the recorder the module reads itself", () => {
    const health = readHealth({
      peers: {
        crm: { configured: true, reachable: true, state: 'reachable' },
        obs: { configured: true, reachable: false, state: 'unreachable' },
      },
    });
    const snapshot = { ...emptySnapshot(), health, recorder: { ...readRecorder({}), configured: true } };
    expect(peersDown(snapshot)).toEqual(['recorder']);
  });
});

describe('derived values', () => {
  const now = new Date('2026-05-04T10:00:00.000Z');

  it('the next post is the earliest scheduled one still to come that post now can send', () => {
    const snapshot = {
      ...emptySnapshot(),
      posts: [
        post({ key: 'a', publishAt: '2026-05-04T15:00:00.000Z' }),
        post({ key: 'b', publishAt: '2026-05-04T11:00:00.000Z' }),
        post({ key: 'c', publishAt: '2026-05-04T10:30:00.000Z', status: 'failed' }),
        post({ key: 'd', publishAt: '2026-05-03T10:30:00.000Z' }),
        // Due now: the bridge refuses it (it may be going out).
        post({ key: 'e', publishAt: '2026-05-04T09:59:30.000Z' }),
        // Scheduled at the provider outside this bridge (no ledger row): the bridge does not post it now.
        post({ key: 'crm:f', socialPostId: 'f', ledgerId: null, publishAt: '2026-05-04T10:10:00.000Z' }),
      ],
    };
    expect(nextPost(snapshot, now)?.key).toBe('b');
    expect(postNowCandidates(snapshot, now).map((p) => p.key)).toEqual(['b', 'a']);
  });

  it('take number: 1 for the name as asked, the _Tnn suffix the bridge added, empty with no name', () => {
    const recorder = readRecorder({});
    expect(takeNumber(recorder)).toBeNull();
    expect(takeNumber({ ...recorder, filename: 'ep', requested: 'ep' })).toBe(1);
    expect(takeNumber({ ...recorder, filename: 'ep_T03', requested: 'ep' })).toBe(3);
  });

  it('post time: HH:MM today, the day too otherwise (local time)', () => {
    const local = new Date(2026, 4, 4, 9, 0);
    expect(formatPostTime(new Date(2026, 4, 4, 14, 5).toISOString(), local)).toBe('14:05');
    expect(formatPostTime(new Date(2026, 4, 6, 8, 30).toISOString(), local)).toBe('6 May 08:30');
  });

  it('the last take file is its name, from a Linux or a Windows recorder', () => {
    expect(fileNameOf('/home/studio/Videos/ep42.mkv')).toBe('ep42.mkv');
    expect(fileNameOf('C:\\Users\\studio\\Videos\\ep42_T02.mkv')).toBe('ep42_T02.mkv');
  });

  it('variables read empty while nothing is known', () => {
    expect(variableValues(emptySnapshot(), now)).toEqual({
      next_filename: '',
      take_number: '',
      last_take_file: '',
      on_air_name: '',
      on_air_viewers: '',
      next_post_time: '',
      next_post_text: '',
      posts_left_today: '',
    });
  });
});

describe('events', () => {
  it('parses an activity frame; comments, retry and other events are not events', () => {
    const data = { id: 7, at: 'x', type: 'recorder.take', level: 'info', message: 'm', data: { takeId: 1 } };
    expect(parseFrame(`id: 7\nevent: activity\ndata: ${JSON.stringify(data)}`)).toEqual({
      id: 7,
      type: 'recorder.take',
      message: 'm',
      data: { takeId: 1 },
    });
    expect(parseFrame('retry: 3000\n: connected')).toBeNull();
    expect(parseFrame(': ping')).toBeNull();
    expect(parseFrame('event: activity\ndata: {not json')).toBeNull();
    expect(parseFrame('event: other\ndata: {"id":1,"type":"x"}')).toBeNull();
  });

  it('maps each event to the parts it may change', () => {
    expect(sourcesOf({ type: 'recorder.take', data: null })).toEqual(['recorder', 'takes']);
    expect(sourcesOf({ type: 'recorder.filename', data: null })).toEqual(['recorder']);
    expect(sourcesOf({ type: 'broadcast.status', data: null })).toEqual(['broadcasts']);
    expect(sourcesOf({ type: 'posting.failed', data: null })).toEqual(['posts']);
    expect(sourcesOf({ type: 'guests.hold', data: null })).toEqual(['holds']);
    expect(sourcesOf({ type: 'collection.progress', data: null })).toEqual([]);
    expect(sourcesOf({ type: 'bridge.started', data: null })).toHaveLength(6);
    expect(sourcesOf({ type: 'webhook.received', data: null })).toEqual([]);
  });
});
