import { describe, expect, it } from 'vitest';
import {
  classifyNavigation,
  isBridgeUrl,
  isPermissionAllowed,
  originOf,
} from '../../../main/desktop/origin-policy.js';

const bridge = 'http://127.0.0.1:4100';

describe('classifyNavigation', () => {
  it('allows any path of the bridge origin', () => {
    for (const url of [`${bridge}/`, `${bridge}/settings?tab=crm#keys`, `${bridge}/api/health`]) {
      expect(classifyNavigation(url, bridge)).toBe('allow');
    }
  });

  it('sends other web origins to the OS browser, including look-alikes of the bridge', () => {
    for (const url of [
      'https://example.com/docs',
      'http://127.0.0.1:4101/',
      'https://127.0.0.1:4100/',
      'http://127.0.0.1.evil.example:4100/',
      'http://localhost:4100/',
    ]) {
      expect(classifyNavigation(url, bridge)).toBe('external');
    }
  });

  it('refuses every other scheme, credentials in links and unparsable input', () => {
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,<script>1</script>',
      'mailto:studio@example.com',
      'smb://server/share',
      'about:blank',
      'https://user:pass@example.com/',
      'not a url',
      '',
    ]) {
      expect(classifyNavigation(url, bridge)).toBe('deny');
    }
  });

  it('works for an IPv6 bridge', () => {
    expect(classifyNavigation('http://[::1]:4100/x', 'http://[::1]:4100')).toBe('allow');
  });
});

describe('originOf / isBridgeUrl', () => {
  it('gives the origin, nothing for opaque or invalid URLs', () => {
    expect(originOf('http://127.0.0.1:4100/a/b?c')).toBe(bridge);
    expect(originOf('file:///tmp/x')).toBeUndefined();
    expect(originOf('')).toBeUndefined();
    expect(isBridgeUrl(`${bridge}/`, bridge)).toBe(true);
    expect(isBridgeUrl('about:blank', bridge)).toBe(false);
  });
});

describe('isPermissionAllowed', () => {
  it('grants clipboard writes to the bridge origin only, and nothing else', () => {
    expect(isPermissionAllowed('clipboard-sanitized-write', bridge, bridge)).toBe(true);
    expect(isPermissionAllowed('clipboard-sanitized-write', `${bridge}/settings`, bridge)).toBe(true);
    expect(isPermissionAllowed('clipboard-sanitized-write', 'https://example.com', bridge)).toBe(false);
    for (const permission of ['media', 'notifications', 'geolocation', 'clipboard-read', 'openExternal']) {
      expect(isPermissionAllowed(permission, bridge, bridge)).toBe(false);
    }
  });
});
