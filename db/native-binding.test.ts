// openDatabase's nativeBinding (the Electron shell's own better-sqlite3 build) and the paths
// main/launch.mjs builds that copy at. The .mjs helpers are tested here: vitest's projects do not cover main/.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from './connection';
import { buildProjectPackage, electronBindingPath, electronBuildDir, envForElectronBuild } from '../main/electron-native.mjs';

const sqliteDir = path.dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'));
const nodeBinding = path.join(sqliteDir, 'build', 'Release', 'better_sqlite3.node');

let dir: string;
const opened: OpenedDatabase[] = [];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-binding-'));
});
afterEach(async () => {
  for (const d of opened.splice(0)) await d.close().catch(() => {});
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('openDatabase nativeBinding', () => {
  it('loads a better_sqlite3.node copied outside node_modules, migrates and works', async () => {
    // As the desktop does with its copy under out/native (here the Node build, since this is Node).
    const copy = path.join(dir, 'native', 'better_sqlite3.node');
    fs.mkdirSync(path.dirname(copy));
    fs.copyFileSync(nodeBinding, copy);
    const database = await openDatabase(path.join(dir, 'desk.sqlite'), { nativeBinding: copy });
    opened.push(database);
    const { rows } = await sql<{ n: number }>`select count(*) as n from workspace`.execute(database.db);
    expect(rows[0].n).toBe(0);
    const { rows: mode } = await sql<{ journalMode: string }>`pragma journal_mode`.execute(database.db);
    expect(mode[0].journalMode).toBe('wal');
  });

  it('without it, uses node_modules\' own build as before', async () => {
    const database = await openDatabase(path.join(dir, 'desk.sqlite'), {});
    opened.push(database);
    const { rows } = await sql<{ n: number }>`select count(*) as n from workspace`.execute(database.db);
    expect(rows[0].n).toBe(0);
  });

  it('rejects a missing binding with an error that names it, creating no database', async () => {
    const bogus = path.join(dir, 'nowhere', 'better_sqlite3.node');
    const file = path.join(dir, 'desk.sqlite');
    await expect(openDatabase(file, { nativeBinding: bogus })).rejects.toThrow(
      `SQLite native binding not found: ${bogus}`,
    );
    expect(fs.existsSync(file)).toBe(false);
  });

  it('rejects a file that is not a native addon', async () => {
    const junk = path.join(dir, 'better_sqlite3.node');
    fs.writeFileSync(junk, 'not an addon');
    await expect(openDatabase(path.join(dir, 'desk.sqlite'), { nativeBinding: junk })).rejects.toThrow(junk);
  });
});

describe('Electron binding paths (main/electron-native.mjs)', () => {
  it('keeps one copy per Electron version, platform and arch under out/native', () => {
    const root = path.join(dir, 'app');
    expect(electronBindingPath(root, '38.8.6', 'linux', 'x64')).toBe(
      path.join(root, 'out', 'native', 'electron-38.8.6-linux-x64', 'better_sqlite3.node'),
    );
    expect(electronBindingPath(root, '38.8.6', 'darwin', 'arm64')).not.toBe(electronBindingPath(root, '38.8.6', 'linux', 'x64'));
    expect(electronBindingPath(root, '39.0.0', 'linux', 'x64')).not.toBe(electronBindingPath(root, '38.8.6', 'linux', 'x64'));
    expect(electronBuildDir(root, '38.8.6')).toBe(path.join(root, 'out', 'native', 'build-38.8.6'));
  });

  it('the scratch project depends on exactly the installed better-sqlite3', () => {
    const version = (JSON.parse(fs.readFileSync(path.join(sqliteDir, 'package.json'), 'utf8')) as { version: string }).version;
    expect(buildProjectPackage(version).dependencies).toEqual({ 'better-sqlite3': version });
  });

  it('drops npm settings that would retarget node-gyp at Node, keeps the rest', () => {
    const env = envForElectronBuild({
      PATH: '/usr/bin',
      npm_config_nodedir: '/usr',
      npm_config_target: '20.19.0',
      npm_config_runtime: 'node',
      npm_config_dist_url: 'https://nodejs.org/dist',
      NPM_CONFIG_DISTURL: 'https://nodejs.org/dist',
      'npm_config_target-arch': 'ia32',
      npm_config_arch: 'ia32',
      npm_config_https_proxy: 'http://proxy:3128',
      npm_config_cache: '/home/u/.npm',
    });
    expect(env).toEqual({ PATH: '/usr/bin', npm_config_https_proxy: 'http://proxy:3128', npm_config_cache: '/home/u/.npm' });
  });
});
