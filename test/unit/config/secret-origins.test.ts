import { describe, expect, it } from 'vitest';
import type { ConfigKey } from '../../../shared/api/settings.js';
import type { ConfigSource } from '../../../main/config/config.js';
import {
  originOf,
  secretOriginsAtLoad,
  secretOriginsOnSave,
  type SecretOrigins,
} from '../../../main/config/secret-origins.js';

/** Issue #35.3: which origin a peer secret belongs to, at load and when Settings saves. */

const CRM = 'https://crm.example.com';
const OTHER = 'https://other.example.net';

type Values = Partial<Record<ConfigKey, string>>;
const sourcesOf = (env: Values, file: Values): Partial<Record<ConfigKey, ConfigSource>> =>
  Object.fromEntries(
    [...new Set([...Object.keys(file), ...Object.keys(env)])].map((key) => [
      key,
      key in env ? 'env' : 'file',
    ]),
  );
/** Values in force and where they come from, env winning over the file, as loadConfig merges them. */
const running = (env: Values, file: Values) => ({
  values: { ...file, ...env },
  sources: sourcesOf(env, file),
});

describe('originOf', () => {
  it('scheme, host and port; none for what is not a URL', () => {
    expect(originOf('https://CRM.example.com:443/espo/')).toBe(CRM);
    expect(originOf('http://crm.example.com:8080')).toBe('http://crm.example.com:8080');
    expect(originOf('ws://studio-pc:4455')).toBe('ws://studio-pc:4455');
    expect(originOf('none')).toBeNull();
    expect(originOf(undefined)).toBeNull();
  });
});

describe('secretOriginsAtLoad', () => {
  it('a file secret bound to the origin in force is kept; elsewhere it is refused, naming its origin', () => {
    const file = { values: { CRM_URL: CRM, CRM_API_KEY: 'k' }, secretOrigins: { CRM_API_KEY: CRM } };
    const home = secretOriginsAtLoad(running({}, file.values), file);
    expect(home).toEqual({ stored: { CRM_API_KEY: CRM }, boundNow: [], refused: {} });
    const away = secretOriginsAtLoad(running({ CRM_URL: `${OTHER}/espo` }, file.values), file);
    expect(away.refused).toEqual({ crm: CRM });
    // A path on the same origin is the same place.
    expect(secretOriginsAtLoad(running({ CRM_URL: `${CRM}/espo` }, file.values), file).refused).toEqual({});
  });

  it("an earlier release's secret is bound to the URL beside it in the file, even when the environment points away", () => {
    const file = { values: { CRM_URL: CRM, CRM_API_KEY: 'k', GATEWAY_API_KEY: 'g' }, secretOrigins: {} };
    const loaded = secretOriginsAtLoad(running({ CRM_URL: OTHER, GATEWAY_URL: OTHER }, file.values), file);
    // No URL beside the gateway's key: it is bound to the address in force, as the earlier release used it.
    expect(loaded.stored).toEqual({ CRM_API_KEY: CRM, GATEWAY_API_KEY: OTHER });
    expect(loaded.boundNow).toEqual([
      { key: 'CRM_API_KEY', origin: CRM },
      { key: 'GATEWAY_API_KEY', origin: OTHER },
    ]);
    expect(loaded.refused).toEqual({ crm: CRM });
  });

  it('a secret with no address anywhere stays unbound; env secrets are never stored nor refused', () => {
    const file = { values: { POSTSVC_API_KEY: 'p' }, secretOrigins: {} };
    expect(secretOriginsAtLoad(running({}, file.values), file)).toEqual({
      stored: {},
      boundNow: [],
      refused: {},
    });
    const envKey = { values: { CRM_URL: CRM }, secretOrigins: {} };
    expect(secretOriginsAtLoad(running({ CRM_API_KEY: 'k', CRM_URL: OTHER }, envKey.values), envKey)).toEqual(
      {
        stored: {},
        boundNow: [],
        refused: {},
      },
    );
  });
});

describe('secretOriginsOnSave', () => {
  const saved = { CRM_URL: CRM, CRM_API_KEY: 'k', CRM_PASSWORD: 'p' };
  const save = (
    request: Values,
    env: Values = {},
    file: Values = saved,
    origins: SecretOrigins = { CRM_API_KEY: CRM, CRM_PASSWORD: CRM },
  ) => {
    const next: Values = { ...file };
    for (const [key, value] of Object.entries(request) as [ConfigKey, string][]) {
      if (value === '') delete next[key];
      else next[key] = value;
    }
    return secretOriginsOnSave({ request, next, saved: origins, running: running(env, file) });
  };

  it('a move to another origin is refused for every saved secret the save does not set', () => {
    const { issues } = save({ CRM_URL: OTHER, CRM_API_KEY: 'new' });
    expect(issues).toEqual([
      {
        field: 'CRM_PASSWORD',
        rule: 'secret-origin',
        message: `saved for ${CRM}; to move CRM_URL to ${OTHER}, set it again in the same save (or remove it first)`,
      },
    ]);
  });

  it('setting or removing each secret in the same save moves them; removing the URL is no move', () => {
    expect(save({ CRM_URL: OTHER, CRM_API_KEY: 'new', CRM_PASSWORD: '' })).toEqual({
      issues: [],
      stored: { CRM_API_KEY: OTHER },
    });
    expect(save({ CRM_URL: '' })).toEqual({ issues: [], stored: { CRM_API_KEY: CRM, CRM_PASSWORD: CRM } });
    expect(save({ CRM_URL: `${CRM}/espo/` }).issues).toEqual([]);
  });

  it('a new secret is bound to the address it will be sent to: the file URL, or the environment one', () => {
    expect(save({ POSTSVC_URL: OTHER, POSTSVC_API_KEY: 'p' }).stored).toMatchObject({
      POSTSVC_API_KEY: OTHER,
    });
    expect(save({ POSTSVC_API_KEY: 'p' }, { POSTSVC_URL: `${OTHER}/api` }).stored).toMatchObject({
      POSTSVC_API_KEY: OTHER,
    });
    // No address yet: saved unbound, so a URL given later must come with it again (below).
    expect(save({ POSTSVC_API_KEY: 'p' })).toEqual({
      issues: [],
      stored: { CRM_API_KEY: CRM, CRM_PASSWORD: CRM },
    });
  });

  it('a secret from the environment: its peer stays at the origin in force at start', () => {
    const result = save({ CRM_URL: OTHER }, { CRM_API_KEY: 'k' }, { CRM_URL: CRM }, {});
    expect(result.issues).toEqual([
      {
        field: 'CRM_API_KEY',
        rule: 'secret-origin',
        message: `set by the environment for ${CRM}; Settings cannot move CRM_URL to ${OTHER} (change both where the bridge is started)`,
      },
    ]);
    expect(save({ CRM_URL: `${CRM}/x` }, { CRM_API_KEY: 'k' }, { CRM_URL: CRM }, {}).issues).toEqual([]);
  });

  it('an unbound secret (saved with no address) needs setting again when a URL is given', () => {
    const { issues } = save({ GATEWAY_URL: OTHER }, {}, { GATEWAY_API_KEY: 'g' }, {});
    expect(issues).toEqual([
      {
        field: 'GATEWAY_API_KEY',
        rule: 'secret-origin',
        message: `saved with no address; to move GATEWAY_URL to ${OTHER}, set it again in the same save (or remove it first)`,
      },
    ]);
  });
});
