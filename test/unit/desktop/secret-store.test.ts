import { describe, expect, it } from 'vitest';
import {
  chooseSecretProtection,
  createSafeStorageSecretStore,
  type SafeStorageLike,
} from '../../../main/desktop/secret-store.js';

/** Stands in for Electron's safeStorage: a reversible transform that does not leave the plain text visible. */
function fakeSafeStorage(state: {
  available: boolean;
  backend?: string;
  corrupt?: boolean;
}): SafeStorageLike {
  const flip = (bytes: Buffer) => Buffer.from(bytes.map((byte) => byte ^ 0x5a));
  return {
    isEncryptionAvailable: () => state.available,
    encryptString: (plain) => Buffer.concat([Buffer.from('v10'), flip(Buffer.from(plain, 'utf8'))]),
    decryptString: (encrypted) => {
      if (state.corrupt || encrypted.subarray(0, 3).toString() !== 'v10')
        throw new Error('Error while decrypting');
      return flip(encrypted.subarray(3)).toString('utf8');
    },
    getSelectedStorageBackend: () => state.backend ?? 'unknown',
  };
}

describe('chooseSecretProtection', () => {
  it('encrypts with the OS when it can; refuses plain text on macOS and Windows', () => {
    for (const platform of ['darwin', 'win32'] as const) {
      expect(chooseSecretProtection({ platform, encryptionAvailable: true })).toBe('os');
      expect(chooseSecretProtection({ platform, encryptionAvailable: false })).toBe('refuse');
    }
  });

  it('on Linux uses a real keyring, else falls back to plain text', () => {
    const linux = 'linux' as const;
    expect(
      chooseSecretProtection({ platform: linux, encryptionAvailable: true, linuxBackend: 'gnome_libsecret' }),
    ).toBe('os');
    expect(
      chooseSecretProtection({ platform: linux, encryptionAvailable: true, linuxBackend: 'kwallet6' }),
    ).toBe('os');
    expect(
      chooseSecretProtection({ platform: linux, encryptionAvailable: true, linuxBackend: 'basic_text' }),
    ).toBe('plain');
    expect(
      chooseSecretProtection({ platform: linux, encryptionAvailable: false, linuxBackend: 'unknown' }),
    ).toBe('plain');
  });
});

describe('createSafeStorageSecretStore', () => {
  const secret = 'crm-api-key-0123456789 ✓';

  it('seals with safeStorage as tagged base64 that does not contain the secret, and opens it again', () => {
    const warnings: string[] = [];
    const store = createSafeStorageSecretStore(fakeSafeStorage({ available: true }), {
      platform: 'darwin',
      warn: (message) => warnings.push(message),
    });
    const sealed = store.seal(secret);
    expect(sealed).toMatch(/^os:[A-Za-z0-9+/]+=*$/);
    expect(sealed).not.toContain('crm-api-key');
    expect(Buffer.from(sealed.slice(3), 'base64').toString('utf8')).not.toContain('crm-api-key');
    expect(store.open(sealed)).toBe(secret);
    expect(warnings).toEqual([]);
  });

  it('refuses to store a secret in plain text on Windows without DPAPI', () => {
    const store = createSafeStorageSecretStore(fakeSafeStorage({ available: false }), {
      platform: 'win32',
      warn: () => {},
    });
    expect(() => store.seal(secret)).toThrow(/refusing to store secrets in plain text/);
  });

  it('on Linux without a keyring stores plain text and warns once', () => {
    const warnings: string[] = [];
    const store = createSafeStorageSecretStore(fakeSafeStorage({ available: true, backend: 'basic_text' }), {
      platform: 'linux',
      warn: (message) => warnings.push(message),
    });
    const sealed = store.seal(secret);
    store.seal('another');
    expect(sealed.startsWith('plain:')).toBe(true);
    expect(store.open(sealed)).toBe(secret);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/no OS keyring/);
  });

  it('still opens values sealed under the other protection (keyring added or lost later)', () => {
    const withKeyring = createSafeStorageSecretStore(
      fakeSafeStorage({ available: true, backend: 'gnome_libsecret' }),
      { platform: 'linux', warn: () => {} },
    );
    const withoutKeyring = createSafeStorageSecretStore(
      fakeSafeStorage({ available: true, backend: 'basic_text' }),
      {
        platform: 'linux',
        warn: () => {},
      },
    );
    expect(withKeyring.open(withoutKeyring.seal(secret))).toBe(secret);
    expect(withoutKeyring.open(withKeyring.seal(secret))).toBe(secret);
  });

  it('explains values it cannot open', () => {
    const sealed = createSafeStorageSecretStore(fakeSafeStorage({ available: true }), {
      platform: 'darwin',
      warn: () => {},
    }).seal(secret);
    const unavailable = createSafeStorageSecretStore(fakeSafeStorage({ available: false }), {
      platform: 'darwin',
      warn: () => {},
    });
    expect(() => unavailable.open(sealed)).toThrow(/OS encryption is unavailable; enter the secret again/);
    const otherMachine = createSafeStorageSecretStore(fakeSafeStorage({ available: true, corrupt: true }), {
      platform: 'darwin',
      warn: () => {},
    });
    expect(() => otherMachine.open(sealed)).toThrow(/cannot be decrypted \(Error while decrypting\)/);
    expect(() => unavailable.open('rot13:abc')).toThrow(/unknown format/);
  });
});
