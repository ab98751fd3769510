#!/usr/bin/env node
/**
 * `npm run desktop`: builds Desk and opens it in Electron, or explains what is missing.
 * `node main/launch.mjs --typecheck`: type-checks main/ and preload/ when Electron's types are installed.
 * Plain Node, no dependencies: it must run on machines where the Electron binary could not be downloaded.
 * (@electron/rebuild, a devDependency, is loaded only to build better-sqlite3 for Electron, once.)
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProjectPackage, electronBindingPath, electronBuildDir, envForElectronBuild } from './electron-native.mjs';

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

function readVersion(pkgDir) {
  return JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).version;
}

/** Electron's ABI number for a version (asks node-abi, @electron/rebuild's own dependency); null if unknown. */
function electronAbi(electronVersion) {
  try {
    const requireFromRebuild = createRequire(requireFromRoot.resolve('@electron/rebuild'));
    return requireFromRebuild('node-abi').getAbi(electronVersion, 'electron');
  } catch {
    return null;
  }
}

function explainBuildFailure(electronVersion, target, reason) {
  const sqliteVersion = readVersion(path.dirname(requireFromRoot.resolve('better-sqlite3/package.json')));
  const abi = electronAbi(electronVersion) ?? '<ABI>';
  const asset = `better-sqlite3-v${sqliteVersion}-electron-v${abi}-${process.platform}-${process.arch}.tar.gz`;
  console.error(`
Desk desktop: could not build better-sqlite3 for Electron ${electronVersion}:
  ${reason}

The desktop loads its own copy of better-sqlite3 built for Electron's ABI (node_modules stays built
for Node, so \`npm start\` and \`npm test\` are unaffected). @electron/rebuild first downloads a
prebuilt binary from better-sqlite3's GitHub releases; failing that it compiles one, which needs
Electron's headers (https://www.electronjs.org/headers), a C++ toolchain and Python
(https://github.com/nodejs/node-gyp#installation; its node-gyp 9 needs Python <= 3.11, or setuptools).

Fix: run \`npm run desktop\` again where github.com and electronjs.org can be reached, or by hand:
download ${asset}
from https://github.com/WiseLibs/better-sqlite3/releases/tag/v${sqliteVersion}
and copy the build/Release/better_sqlite3.node inside it to
  ${target}
`);
}

/** An Electron build is refused by Node (another NODE_MODULE_VERSION); one that loads was built for Node. */
function loadsUnderNode(file) {
  try {
    process.dlopen({ exports: {} }, file);
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes sure the Electron-ABI copy of better-sqlite3 exists, building it once: a scratch project
 * under out/native gets a copy of node_modules/better-sqlite3 (without its Node build), which
 * @electron/rebuild rebuilds for Electron. node_modules itself is never touched.
 */
async function ensureElectronBinding(electronPkgDir) {
  const electronVersion = readVersion(electronPkgDir);
  const target = electronBindingPath(root, electronVersion, process.platform, process.arch);
  if (fs.existsSync(target)) return 0;
  console.log(`Building better-sqlite3 for Electron ${electronVersion} (once)...`);
  let rebuild;
  try {
    ({ rebuild } = requireFromRoot('@electron/rebuild'));
  } catch {
    explainBuildFailure(electronVersion, target, '@electron/rebuild is not installed (a devDependency): run `npm install` first.');
    return 1;
  }
  const sqliteDir = path.dirname(requireFromRoot.resolve('better-sqlite3/package.json'));
  const buildDir = electronBuildDir(root, electronVersion);
  const moduleDir = path.join(buildDir, 'node_modules', 'better-sqlite3');
  const nodeBuild = path.join(sqliteDir, 'build');
  fs.rmSync(buildDir, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(moduleDir), { recursive: true });
  fs.writeFileSync(path.join(buildDir, 'package.json'), `${JSON.stringify(buildProjectPackage(readVersion(sqliteDir)), null, 2)}\n`);
  fs.cpSync(sqliteDir, moduleDir, { recursive: true, filter: (src) => src !== nodeBuild });
  // The rebuild's node-gyp inherits this environment: drop npm settings that would retarget it.
  const clean = envForElectronBuild(process.env);
  for (const name of Object.keys(process.env)) if (!(name in clean)) delete process.env[name];
  try {
    // projectRootPath keeps it from looking for modules above the scratch project (our node_modules).
    await rebuild({ buildPath: buildDir, projectRootPath: buildDir, electronVersion, force: true, onlyModules: ['better-sqlite3'] });
    const built = path.join(moduleDir, 'build', 'Release', 'better_sqlite3.node');
    if (!fs.existsSync(built)) throw new Error(`the rebuild finished without producing ${path.relative(root, built)}`);
    if (loadsUnderNode(built)) {
      throw new Error('the rebuild produced a binary for Node, not Electron (is a nodedir or target set for node-gyp?)');
    }
    // Copy then rename, so an interrupted copy never passes for a finished build.
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(built, `${target}.partial`);
    fs.renameSync(`${target}.partial`, target);
  } catch (err) {
    explainBuildFailure(electronVersion, target, err instanceof Error ? err.message : String(err));
    return 1;
  }
  fs.rmSync(buildDir, { recursive: true, force: true });
  console.log(`Built ${path.relative(root, target)}`);
  return 0;
}

async function desktop(extraArgs) {
  const { pkgDir, binary } = findElectron();
  if (!binary) {
    explainMissing(pkgDir);
    return 1;
  }
  const built = npmRun('build');
  if (built !== 0) return built;
  const native = await ensureElectronBinding(pkgDir);
  if (native !== 0) return native;
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
