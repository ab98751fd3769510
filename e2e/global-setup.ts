import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The browser tests run the built desk (out/main/cli.js) and UI (out/renderer): build what is stale
 * first, as `npm start` does (nothing when nothing changed: a fraction of a second), so
 * `npx playwright test` on its own never tests an old bundle.
 */
export default function globalSetup(): void {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const res = spawnSync(process.execPath, [path.join(root, 'scripts/build-if-stale.mjs')], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) throw new Error(`scripts/build-if-stale.mjs failed (exit ${res.status ?? res.signal})`);
}
