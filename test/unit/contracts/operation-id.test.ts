import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { buildOpenApi, operationIdOf } from '../../../main/http/openapi.js';
import { defineContract } from '../../../shared/api/contract.js';

const route = (method: 'get' | 'post', path: string, operationId?: string) =>
  defineContract({
    method,
    path,
    summary: 'a route',
    tag: 'test',
    auth: 'key',
    response: z.object({ ok: z.boolean() }),
    ...(operationId === undefined ? {} : { operationId }),
  });

describe('operationIdOf', () => {
  it('derives the id from method and path, so a new route has one without declaring it', () => {
    expect(operationIdOf(route('get', '/health'))).toBe('getHealth');
    expect(operationIdOf(route('get', '/openapi.json'))).toBe('getOpenapiJson');
    expect(operationIdOf(route('post', '/api/jobs/:id/retry'))).toBe('postJobsByIdRetry');
    expect(operationIdOf(route('get', '/streamhost/status/:broadcastId'))).toBe(
      'getStreamhostStatusByBroadcastId',
    );
    expect(operationIdOf(route('post', '/api/guests/:id/holds/:stage/send-anyway'))).toBe(
      'postGuestsByIdHoldsByStageSendAnyway',
    );
    expect(operationIdOf(route('get', '/api'))).toBe('getApi');
  });

  it("takes a contract's own operationId", () => {
    expect(operationIdOf(route('post', '/postsvc/schedule', 'schedulePost'))).toBe('schedulePost');
  });
});

describe('buildOpenApi', () => {
  it('puts the id and the summary on every operation, the version in info', () => {
    const doc = buildOpenApi([route('get', '/api/posts'), route('post', '/api/posts')], '0.1.0');
    expect(doc.info.version).toBe('0.1.0');
    expect(doc.paths['/api/posts']).toMatchObject({
      get: { operationId: 'getPosts', summary: 'a route' },
      post: { operationId: 'postPosts', summary: 'a route' },
    });
  });

  it('refuses two routes with one id, naming both and the fix', () => {
    expect(() => buildOpenApi([route('get', '/api/posts'), route('get', '/posts')], '0.1.0')).toThrow(
      'operationId getPosts of GET /posts is already that of GET /api/posts: give one of them its own operationId in its contract',
    );
  });
});
