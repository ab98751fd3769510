import fs from 'node:fs';
import path from 'node:path';

/**
 * The data folder holds the workspace token in plain text (in the database) and the log: only the
 * user who runs Desk may read it. New files are created private; what an older Desk (or a copied
 * backup) left readable is made private on start. Windows has no POSIX modes: its per-user
 * app-data folder already is private, so nothing is changed there.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

export const enforcesModes = process.platform !== 'win32';

/** Creates the data folder (0700) and makes everything already in it private (folders 0700, files 0600). */
export function makeDataDirPrivate(dataDir: string): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (!enforcesModes) return;
  const walk = (dir: string) => {
    fs.chmodSync(dir, PRIVATE_DIR_MODE);
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      // Symbolic links are left alone: their targets are not Desk's to change.
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) fs.chmodSync(full, PRIVATE_FILE_MODE);
    }
  };
  walk(dataDir);
}
