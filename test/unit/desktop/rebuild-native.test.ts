import { describe, expect, it } from 'vitest';
import { runtimeArch } from '../../../main/desktop/rebuild-native.js';

/**
 * rebuild-native.ts no longer imports electron-builder's `Arch` enum (electron-builder is absent on
 * Node < 22.12, where the type check runs too): its own table must read the enum's values
 * (builder-util: ia32 = 0, x64 = 1, armv7l = 2, arm64 = 3, universal = 4) as process.arch names them.
 */
describe('runtimeArch', () => {
  it("names electron-builder's architectures as process.arch does", () => {
    expect([0, 1, 2, 3].map(runtimeArch)).toEqual(['ia32', 'x64', 'arm', 'arm64']);
  });

  it('refuses universal (packed per architecture first) and unknown values', () => {
    expect(() => runtimeArch(4)).toThrow(/universal/);
    expect(() => runtimeArch(9)).toThrow(/unknown electron-builder architecture 9/);
  });
});
