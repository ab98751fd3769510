#!/usr/bin/env node
/**
 * `npm run desktop`: builds Desk and opens it in Electron, or explains what is missing.
 * `node main/launch.mjs --typecheck`: type-checks main/ and preload/ when Electron's types are installed.
 * Plain Node, no dependencies: it must run on machines where the Electron binary could not be downloaded.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const requireFromRoot = createRequire(path.join(root, 'package.json'));

/** Where the electron package and its binary are, mirroring what electron/index.js does. */
function findElectron() {
  let pkgDir;
  try {
    pkgDir = path.dirname(requireFromRoot.resolve('electron/package.json'));
  } catch {
    return { pkgDir: null, binary: null };
  }
  const pathFile = path.join(pkgDir, 'path.txt');
  const relative = fs.existsSync(pathFile) ? fs.readFileSync(pathFile, 'utf8').trim() : null;
  const distDir = process.env.ELECTRON_OVERRIDE_DIST_PATH || path.join(pkgDir, 'dist');
  const binary = relative ? path.join(distDir, relative) : null;
  return { pkgDir, binary: binary && fs.existsSync(binary) ? binary : null };
}

function explainMissing(pkgDir) {
  const what = pkgDir
    ? `the "electron" package is installed (${path.relative(root, pkgDir)}) but its binary is not (no path.txt / dist/ in it).`
    : 'the "electron" package is not installed (node_modules/electron is missing).';
  console.error(`
Desk desktop: cannot open the Electron window on this machine:
  ${what}

Why: Electron's own install script downloads the Electron binary from GitHub's release host.
When that download fails (no route to the host, as on our build machines) npm skips the optional
"electron" dependency and \`npm install\` still succeeds: everything except the window builds, runs
and is tested without it.

Fix, on a machine with normal network access:
  npm install electron --include=optional      (or re-run \`npm install\` there)
  npm run desktop
Behind a proxy or mirror, set ELECTRON_MIRROR (see https://www.electronjs.org/docs/latest/tutorial/installation).

Meanwhile the same UI runs in your browser:
  npm start      then open the printed http://127.0.0.1:4477/#token=... link
`);
}

/** Runs an npm script the same way npm itself was invoked (works on Windows too). */
function npmRun(script) {
  const npmCli = process.env.npm_execpath;
  const result = npmCli && /\.(c|m)?js$/.test(npmCli)
    ? spawnSync(process.execPath, [npmCli, 'run', script], { cwd: root, stdio: 'inherit' })
    : spawnSync('npm', ['run', script], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  return result.status ?? 1;
}

function typecheck() {
  const { pkgDir } = findElectron();
  if (!pkgDir) {
    console.log('typecheck: main/ and preload/ skipped: Electron\'s types come with the "electron" package, which is not installed here.');
    return 0;
  }
  const tsc = requireFromRoot.resolve('typescript/bin/tsc');
  return spawnSync(process.execPath, [tsc, '--noEmit', '-p', 'main/tsconfig.json'], { cwd: root, stdio: 'inherit' }).status ?? 1;
}

function desktop(extraArgs) {
  const { pkgDir, binary } = findElectron();
  if (!binary) {
    explainMissing(pkgDir);
    return Promise.resolve(1);
  }
  const built = npmRun('build');
  if (built !== 0) return Promise.resolve(built);
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE; // would start Electron as plain Node instead of the app
  // package.json "main" points Electron at out/main/index.js.
  const child = spawn(binary, [root, ...extraArgs], { cwd: root, stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  return new Promise((resolve) => {
    child.on('error', (err) => {
      console.error(`Desk desktop: could not start ${binary}: ${err.message}`);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const args = process.argv.slice(2);
const code = args.includes('--typecheck') ? typecheck() : await desktop(args);
process.exit(code);
