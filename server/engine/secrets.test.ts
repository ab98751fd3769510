import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SECRETS_FILE, SecretStore, SecretsLockedError } from './secrets';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-secrets-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const file = () => fs.readFileSync(path.join(dir, SECRETS_FILE), 'utf8');

describe('SecretStore', () => {
  it('keeps values in a private file outside the database (plain headless), and removes them', () => {
    const store = new SecretStore(dir);
    expect(store.get('engine.apiKey')).toBeNull();
    store.set('engine.apiKey', 'sk-plain-1234');
    expect(new SecretStore(dir).get('engine.apiKey')).toBe('sk-plain-1234');
    if (process.platform !== 'win32') expect(fs.statSync(path.join(dir, SECRETS_FILE)).mode & 0o777).toBe(0o600);
    store.set('engine.apiKey', null);
    expect(new SecretStore(dir).get('engine.apiKey')).toBeNull();
    expect(fs.readdirSync(dir)).toEqual([SECRETS_FILE]);
  });

  it('encrypts with the desktop key: the file never holds the value, another key or none cannot read it', () => {
    const key = crypto.randomBytes(32);
    new SecretStore(dir, key).set('engine.apiKey', 'sk-sealed-5678');
    expect(file()).not.toContain('sk-sealed-5678');
    expect(JSON.parse(file())).toMatchObject({ version: 1, encrypted: true });
    expect(new SecretStore(dir, key).get('engine.apiKey')).toBe('sk-sealed-5678');
    const headless = new SecretStore(dir);
    expect(() => headless.get('engine.apiKey')).toThrow(SecretsLockedError);
    expect(headless.has('engine.apiKey')).toBe(true);
    expect(() => new SecretStore(dir, crypto.randomBytes(32)).get('engine.apiKey')).toThrow(SecretsLockedError);
    // Setting a key where the file cannot be read replaces it.
    headless.set('engine.apiKey', 'sk-new-0000');
    expect(new SecretStore(dir).get('engine.apiKey')).toBe('sk-new-0000');
  });

  it('refuses a key of the wrong size', () => {
    expect(() => new SecretStore(dir, Buffer.alloc(16))).toThrow('32 bytes');
  });
});
