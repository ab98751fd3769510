import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** What bundleFromSource asks of esbuild (a development dependency, loaded only from source). */
interface Esbuild {
  buildSync(options: Record<string, unknown>): { outputFiles: { contents: Uint8Array }[] };
}

/** A bundle of another content left this long unused is removed when a new one is written. */
export const STALE_BUNDLE_MS = 7 * 24 * 3_600_000;

const PREFIX = 'cycle-worker-';

const requireHere = createRequire(import.meta.url);
let built: { entry: string; file: string; code: Uint8Array } | undefined;
let cacheDirOfProcess: string | undefined;

/**
 * The worker's entry and its modules as one file, made once per process with esbuild, packages left
 * to node_modules as the shipped bundle leaves them. A worker that loaded the .ts files through
 * tsx's loader compiled them again at every start (~1.7 s of CPU against ~20 ms for the bundle), and
 * the test suite starts workers by the dozen. The file is named by its content, in node_modules'
 * cache folder, so processes building the same code share it. Each call makes sure the file is still
 * there (a long-running process may start a worker after another one pruned it).
 */
export function bundleFromSource(entry: string, cacheDir = defaultCacheDir()): string {
  if (built === undefined || built.entry !== entry || path.dirname(built.file) !== cacheDir) {
    const esbuild = requireHere('esbuild') as Esbuild;
    const code = esbuild.buildSync({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', write: false }).outputFiles[0].contents;
    built = { entry, file: path.join(cacheDir, `${PREFIX}${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`), code };
  }
  writeIfMissing(built.file, built.code);
  return built.file;
}

/** node_modules/.cache/desk, found once per process. */
function defaultCacheDir(): string {
  return (cacheDirOfProcess ??= path.join(path.dirname(path.dirname(requireHere.resolve('esbuild/package.json'))), '.cache', 'desk'));
}

/** Writes the bundle whole (other processes may read it at once), or marks the existing one as used. */
function writeIfMissing(file: string, code: Uint8Array): void {
  const now = new Date();
  try {
    fs.utimesSync(file, now, now);
    return;
  } catch {
    // not there: written below
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const part = `${file}.${process.pid}.part`;
  fs.writeFileSync(part, code);
  fs.renameSync(part, file);
  pruneStale(path.dirname(file), file, now.getTime());
}

/** Each source change left a bundle behind: those unused for STALE_BUNDLE_MS go. */
function pruneStale(dir: string, keep: string, now: number): void {
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    if (!name.startsWith(PREFIX) || file === keep) continue;
    try {
      if (now - fs.statSync(file).mtimeMs > STALE_BUNDLE_MS) fs.rmSync(file, { force: true });
    } catch {
      // another process removed it first
    }
  }
}
