import fs from 'node:fs';
import path from 'node:path';
import { liveLockOwner } from './data-dir-lock';

/**
 * Where the desk that owns a data folder listens, for local tools that reach it (`npm run mcp`):
 * `<dataDir>/desk-address.json` = `{ pid, url }`, written once the server listens and removed on
 * stop. A file left by a desk that crashed is ignored: it counts only while that pid still holds
 * the folder's lock (data-dir-lock.ts), which already tells a live desk from a reused pid.
 */
export const ADDRESS_FILE = 'desk-address.json';

export interface DeskAddress {
  pid: number;
  url: string;
}

/** Records this process's URL for its data folder; returns the function that removes it (only if still ours). */
export function writeDeskAddress(dataDir: string, url: string): () => void {
  const file = path.join(dataDir, ADDRESS_FILE);
  const content = `${JSON.stringify({ pid: process.pid, url } satisfies DeskAddress)}\n`;
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, content, { mode: 0o600 });
  fs.renameSync(tmp, file);
  return () => {
    try {
      if (fs.readFileSync(file, 'utf8') === content) fs.rmSync(file, { force: true });
    } catch {
      /* already gone */
    }
  };
}

/** The address of the live desk that holds `dataDir`, or null when none runs there. */
export function readDeskAddress(dataDir: string): DeskAddress | null {
  let parsed: Partial<DeskAddress>;
  try {
    parsed = JSON.parse(fs.readFileSync(path.join(dataDir, ADDRESS_FILE), 'utf8')) as Partial<DeskAddress>;
  } catch {
    return null;
  }
  if (typeof parsed.pid !== 'number' || typeof parsed.url !== 'string' || !/^https?:\/\//.test(parsed.url)) return null;
  const owner = liveLockOwner(dataDir);
  return owner !== null && owner.pid === parsed.pid ? { pid: parsed.pid, url: parsed.url } : null;
}
