/**
 * Secrets Desk keeps outside the database (today: the engine's API key), in `<dataDir>/secrets.json`
 * (0600, written to a temporary file and renamed, so a crash never leaves half a file). Backups and
 * exports of the database therefore never carry them.
 *
 * On the desktop the file is encrypted (AES-256-GCM) with a key the Electron main process keeps
 * with safeStorage (the OS keychain) and hands the desk process at start (main/secrets-key.ts):
 * safeStorage exists only in main, and one key passed once keeps main thin (no round trip per
 * read). Headless under Node there is no keychain: the file is plain JSON, private to the user,
 * like ~/.netrc; DESK_OPENAI_API_KEY can supply the key without it being written at all.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE_MODE } from '../core/private-data';

export const SECRETS_FILE = 'secrets.json';
export type SecretName = 'engine.apiKey';

interface PlainFile {
  version: 1;
  encrypted: false;
  values: Partial<Record<SecretName, string>>;
}
interface SealedFile {
  version: 1;
  encrypted: true;
  iv: string;
  tag: string;
  data: string;
}

/** Thrown when the file is encrypted and this process has no (or another) key: the desktop wrote it. */
export class SecretsLockedError extends Error {
  constructor() {
    super('The stored secrets are encrypted by the desktop app and cannot be read here');
    this.name = 'SecretsLockedError';
  }
}

export class SecretStore {
  private readonly file: string;
  private cache: Partial<Record<SecretName, string>> | null = null;

  /** `key`: 32 bytes to encrypt with (the desktop's), or null for a plain private file. */
  constructor(
    dataDir: string,
    private readonly key: Buffer | null = null,
  ) {
    if (key !== null && key.length !== 32) throw new Error('The secrets key must be 32 bytes');
    this.file = path.join(dataDir, SECRETS_FILE);
  }

  get encrypted(): boolean {
    return this.key !== null;
  }

  private load(): Partial<Record<SecretName, string>> {
    if (this.cache) return this.cache;
    let raw: string;
    try {
      raw = fs.readFileSync(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return (this.cache = {});
      throw err;
    }
    const parsed = JSON.parse(raw) as PlainFile | SealedFile;
    if (!parsed.encrypted) return (this.cache = { ...parsed.values });
    if (this.key === null) throw new SecretsLockedError();
    try {
      const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, Buffer.from(parsed.iv, 'base64'));
      decipher.setAuthTag(Buffer.from(parsed.tag, 'base64'));
      const plain = Buffer.concat([decipher.update(Buffer.from(parsed.data, 'base64')), decipher.final()]).toString('utf8');
      return (this.cache = JSON.parse(plain) as Partial<Record<SecretName, string>>);
    } catch {
      throw new SecretsLockedError();
    }
  }

  /** The value, or null when none is stored. Throws SecretsLockedError when it cannot be decrypted here. */
  get(name: SecretName): string | null {
    return this.load()[name] ?? null;
  }

  /** Whether a value is stored (also when it cannot be decrypted here). */
  has(name: SecretName): boolean {
    try {
      return this.get(name) !== null;
    } catch (err) {
      if (err instanceof SecretsLockedError) return true;
      throw err;
    }
  }

  /** Stores a value; null removes it. A locked file is replaced (the old value was unreadable here anyway). */
  set(name: SecretName, value: string | null): void {
    let values: Partial<Record<SecretName, string>>;
    try {
      values = { ...this.load() };
    } catch (err) {
      if (!(err instanceof SecretsLockedError)) throw err;
      values = {};
    }
    if (value === null) delete values[name];
    else values[name] = value;
    this.write(values);
    this.cache = values;
  }

  private write(values: Partial<Record<SecretName, string>>): void {
    let body: PlainFile | SealedFile;
    if (this.key === null) {
      body = { version: 1, encrypted: false, values };
    } else {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
      const data = Buffer.concat([cipher.update(JSON.stringify(values), 'utf8'), cipher.final()]);
      body = { version: 1, encrypted: true, iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
    }
    const tmp = `${this.file}.${process.pid}.tmp`;
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    fs.writeFileSync(tmp, `${JSON.stringify(body)}\n`, { mode: PRIVATE_FILE_MODE });
    fs.chmodSync(tmp, PRIVATE_FILE_MODE);
    fs.renameSync(tmp, this.file);
  }
}
