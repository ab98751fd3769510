import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

/**
 * A maker of folders under the system's temp folder (named `prefix` + random), each removed after
 * the test that made it. Call it before the file's own afterEach: Vitest runs after-hooks last
 * registered first, so what the file stops there (desks, child processes) stops before its folder goes.
 */
export function tempDirs(prefix: string): () => string {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
