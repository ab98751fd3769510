// Types for electron-native.mjs (plain JavaScript so that launch.mjs can run it under Node).
export function electronBindingPath(root: string, electronVersion: string, platform: string, arch: string): string;
export function electronBuildDir(root: string, electronVersion: string): string;
export function buildProjectPackage(betterSqliteVersion: string): {
  name: string;
  private: true;
  description: string;
  dependencies: { 'better-sqlite3': string };
};
export function envForElectronBuild(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
