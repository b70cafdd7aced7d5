import { describe, expect, it } from 'vitest';
import { isLoopback, isLoopbackHost } from '../../../main/http/client-address.js';

/** Issue #35.6: the Host check applies to every loopback bind, 127.0.0.0/8 and ::1. */
describe('isLoopback (a socket address)', () => {
  it.each(['127.0.0.1', '127.0.0.2', '127.255.255.254', '::1', '::ffff:127.0.0.1', '0:0:0:0:0:0:0:1'])(
    '%s is loopback',
    (address) => expect(isLoopback(address)).toBe(true),
  );
  it.each(['128.0.0.1', '10.0.0.1', '::2', '::ffff:10.0.0.1', '0.0.0.0', '::', 'unknown', '127.example'])(
    '%s is not',
    (address) => expect(isLoopback(address)).toBe(false),
  );
});

describe('isLoopbackHost (a bind address or a Host name)', () => {
  it.each(['127.0.0.1', '127.0.0.2', '::1', '[::1]', 'localhost', 'LOCALHOST'])('%s is loopback', (host) =>
    expect(isLoopbackHost(host)).toBe(true),
  );
  it.each(['0.0.0.0', '::', '192.168.1.20', 'evil.example', 'localhost.evil.example', '127.0.0.1.nip.io'])(
    '%s is not',
    (host) => expect(isLoopbackHost(host)).toBe(false),
  );
});
