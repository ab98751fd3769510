/**
 * The key that encrypts the desk's secrets file (the AI engine's API key, server/engine/secrets.ts).
 * safeStorage (the OS keychain) exists only in Electron's main process, so main keeps one random
 * 32-byte key sealed with it in the data folder and hands it to the desk process in its start
 * message (over the parent port, never on a command line). No Electron import here, so it is
 * tested under plain Node with a stand-in for safeStorage.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const SEALED_KEY_FILE = 'secrets-key.bin';

/** The part of Electron's safeStorage used here. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

/**
 * The secrets key (base64), created on first use; undefined when the OS offers no encryption (the
 * desk then keeps a plain private file, as headless). A sealed key the keychain no longer opens is
 * replaced: the stored API key then reads as unreadable and the user enters it again.
 */
export function loadSecretsKey(dataDir: string, safeStorage: SafeStorageLike): string | undefined {
  if (!safeStorage.isEncryptionAvailable()) return undefined;
  const file = path.join(dataDir, SEALED_KEY_FILE);
  if (fs.existsSync(file)) {
    try {
      const key = safeStorage.decryptString(fs.readFileSync(file));
      if (Buffer.from(key, 'base64').length === 32) return key;
    } catch {
      // sealed by another keychain (a copied profile): make a new key below
    }
  }
  const key = crypto.randomBytes(32).toString('base64');
  fs.mkdirSync(dataDir, { recursive: true });
  const tmp = `${file}.tmp`;
  fs.writeFileSync(tmp, safeStorage.encryptString(key), { mode: 0o600 });
  fs.renameSync(tmp, file);
  return key;
}
