import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockDataDir } from './data-dir-lock';
import { ADDRESS_FILE, readDeskAddress, writeDeskAddress } from './desk-address';

const dirs: string[] = [];
const freshDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-address-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the desk address of a data folder', () => {
  it('is read while the desk that wrote it holds the lock, and removed by it', () => {
    const dir = freshDir();
    const unlock = lockDataDir(dir);
    const forget = writeDeskAddress(dir, 'http://127.0.0.1:4477');
    expect(readDeskAddress(dir)).toEqual({ pid: process.pid, url: 'http://127.0.0.1:4477' });
    expect(fs.statSync(path.join(dir, ADDRESS_FILE)).mode & 0o777).toBe(0o600);
    forget();
    expect(readDeskAddress(dir)).toBeNull();
    unlock();
  });

  it('is ignored without a live lock of the same desk, or when it is not an address', () => {
    const dir = freshDir();
    writeDeskAddress(dir, 'http://127.0.0.1:4477');
    // no lock: the desk that wrote it is gone
    expect(readDeskAddress(dir)).toBeNull();
    const unlock = lockDataDir(dir);
    // a lock held by another pid than the address names
    fs.writeFileSync(path.join(dir, ADDRESS_FILE), JSON.stringify({ pid: process.pid + 1_000_000, url: 'http://127.0.0.1:1' }));
    expect(readDeskAddress(dir)).toBeNull();
    for (const junk of ['not json', JSON.stringify({ pid: process.pid, url: 'file:///etc/passwd' }), JSON.stringify({ url: 'http://127.0.0.1:1' })]) {
      fs.writeFileSync(path.join(dir, ADDRESS_FILE), junk);
      expect(readDeskAddress(dir), junk).toBeNull();
    }
    unlock();
  });
});
