/**
 * SecretStore over Electron's safeStorage (DESIGN §3: secrets in the desktop config file are encrypted
 * with the OS keychain / DPAPI / Secret Service). No Electron import: main.ts passes `safeStorage` in,
 * tests pass a stand-in.
 *
 * Sealed values are tagged so that a value written under one protection can still be opened later:
 *   `os:<base64>`    ciphertext from safeStorage
 *   `plain:<base64>` the secret itself (Linux without a keyring only; the file is still mode 0600)
 *
 * safeStorage's synchronous calls are deprecated in favour of async ones since Electron 38, but
 * SecretStore is synchronous (config is read synchronously), so they are what fits here.
 */
import type { SecretStore } from '../app.js';

/** The part of Electron's `safeStorage` used here. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only. `basic_text`: no keyring found, Chromium "encrypts" with a hard-coded key. */
  getSelectedStorageBackend(): string;
}

export type SecretProtection = 'os' | 'plain' | 'refuse';

export function chooseSecretProtection(options: {
  platform: NodeJS.Platform;
  encryptionAvailable: boolean;
  linuxBackend?: string;
}): SecretProtection {
  if (options.platform !== 'linux') return options.encryptionAvailable ? 'os' : 'refuse';
  // basic_text would only obfuscate with a key that is in Chromium's source: say plainly what it is.
  return options.encryptionAvailable && options.linuxBackend !== 'basic_text' ? 'os' : 'plain';
}

const OS_TAG = 'os:';
const PLAIN_TAG = 'plain:';

export function createSafeStorageSecretStore(
  safeStorage: SafeStorageLike,
  options: { platform: NodeJS.Platform; warn: (message: string) => void },
): SecretStore {
  let warned = false;
  const protection = (): SecretProtection =>
    chooseSecretProtection({
      platform: options.platform,
      encryptionAvailable: safeStorage.isEncryptionAvailable(),
      linuxBackend: options.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : undefined,
    });

  return {
    seal(plain: string): string {
      switch (protection()) {
        case 'os':
          return OS_TAG + safeStorage.encryptString(plain).toString('base64');
        case 'plain':
          if (!warned) {
            warned = true;
            options.warn(
              'no OS keyring (Secret Service or KWallet) available: secrets are stored unencrypted in the config file (mode 0600), as in headless mode',
            );
          }
          return PLAIN_TAG + Buffer.from(plain, 'utf8').toString('base64');
        case 'refuse':
          throw new Error(
            'OS encryption (Keychain/DPAPI) is unavailable: refusing to store secrets in plain text; set them as environment variables instead',
          );
      }
    },
    open(sealed: string): string {
      if (sealed.startsWith(PLAIN_TAG))
        return Buffer.from(sealed.slice(PLAIN_TAG.length), 'base64').toString('utf8');
      if (!sealed.startsWith(OS_TAG)) throw new Error('stored secret has an unknown format');
      if (!safeStorage.isEncryptionAvailable()) {
        throw new Error(
          'stored secret cannot be decrypted: OS encryption is unavailable; enter the secret again',
        );
      }
      try {
        return safeStorage.decryptString(Buffer.from(sealed.slice(OS_TAG.length), 'base64'));
      } catch (error) {
        // e.g. the config file was copied from another machine or user account.
        throw new Error(
          `stored secret cannot be decrypted (${(error as Error).message}); enter the secret again`,
        );
      }
    },
  };
}
