/**
 * Where the desktop keeps its own better-sqlite3 built for Electron's ABI, so node_modules stays
 * built for Node (tests, `npm start`). Shared by launch.mjs (plain Node, builds the copy) and
 * index.ts (Electron, loads it). Pure functions, no dependencies.
 */
import path from 'node:path';

/** The Electron-ABI better_sqlite3.node for one Electron version, platform and arch. */
export function electronBindingPath(root, electronVersion, platform, arch) {
  return path.join(root, 'out', 'native', `electron-${electronVersion}-${platform}-${arch}`, 'better_sqlite3.node');
}

/** Scratch project in which @electron/rebuild builds that copy. */
export function electronBuildDir(root, electronVersion) {
  return path.join(root, 'out', 'native', `build-${electronVersion}`);
}

/** package.json of the scratch project: @electron/rebuild rebuilds the dependencies it lists. */
export function buildProjectPackage(betterSqliteVersion) {
  return {
    name: 'desk-electron-native',
    private: true,
    description: 'Scratch project of `npm run desktop`: better-sqlite3 rebuilt for Electron.',
    dependencies: { 'better-sqlite3': betterSqliteVersion },
  };
}

// npm hands its config to scripts as npm_config_* variables, and node-gyp lets them override its
// command line: an npmrc `nodedir` (or target, runtime, dist-url, arch) would silently build
// against Node's headers instead of Electron's.
const TARGET_SETTINGS = new Set([
  'nodedir', 'target', 'target_arch', 'target_platform', 'arch', 'platform', 'runtime',
  'disturl', 'dist_url',
]);

/** The environment for the rebuild: the caller's, minus npm settings that would redirect the target. */
export function envForElectronBuild(env) {
  const result = {};
  for (const [name, value] of Object.entries(env)) {
    const match = /^npm_config_(.+)$/i.exec(name);
    if (match && TARGET_SETTINGS.has(match[1].toLowerCase().replace(/-/g, '_'))) continue;
    result[name] = value;
  }
  return result;
}
