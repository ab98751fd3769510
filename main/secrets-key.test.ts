import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SecretStore } from '../server/engine/secrets';
import { SEALED_KEY_FILE, loadSecretsKey, type SafeStorageLike } from './secrets-key';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-key-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** safeStorage stand-in: "encrypts" by xor with a per-keychain byte, so another keychain cannot open it. */
function keychain(byte: number, available = true): SafeStorageLike {
  const xor = (b: Buffer) => Buffer.from(b.map((x) => x ^ byte));
  return {
    isEncryptionAvailable: () => available,
    encryptString: (text) => Buffer.concat([Buffer.from('SEAL'), xor(Buffer.from(text, 'utf8'))]),
    decryptString: (sealed) => {
      if (sealed.subarray(0, 4).toString() !== 'SEAL') throw new Error('not sealed');
      const text = xor(sealed.subarray(4)).toString('utf8');
      if (!/^[A-Za-z0-9+/=]+$/.test(text)) throw new Error('wrong keychain');
      return text;
    },
  };
}

describe('secrets key kept with safeStorage', () => {
  it('creates one key, sealed in the data folder, and returns the same key on the next start', () => {
    const key = loadSecretsKey(dir, keychain(7))!;
    expect(Buffer.from(key, 'base64')).toHaveLength(32);
    expect(fs.readFileSync(path.join(dir, SEALED_KEY_FILE)).toString('latin1')).not.toContain(key);
    expect(loadSecretsKey(dir, keychain(7))).toBe(key);
    // The desk process encrypts its secrets with it.
    new SecretStore(dir, Buffer.from(key, 'base64')).set('engine.apiKey', 'sk-desktop-9999');
    expect(new SecretStore(dir, Buffer.from(loadSecretsKey(dir, keychain(7))!, 'base64')).get('engine.apiKey')).toBe('sk-desktop-9999');
  });

  it('gives no key without OS encryption, and a new one when the keychain cannot open the old', () => {
    expect(loadSecretsKey(dir, keychain(7, false))).toBeUndefined();
    const first = loadSecretsKey(dir, keychain(7))!;
    const other = loadSecretsKey(dir, keychain(200))!;
    expect(other).not.toBe(first);
    expect(loadSecretsKey(dir, keychain(200))).toBe(other);
  });
});
