import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../server/core/clock';
import { startTestDesk, type TestDesk } from '../../../server/testing/desk';
import { apiChecks, everyVersionChecks } from '../../../server/testing/upgrade-checks';
import { migrateDatabase, schemaVersionOf } from '../../migrate';
import { migrations } from '../index';
import { buildFixtureDatabases, fixtureSchema, keyOf, readFixtureTables } from './generate';
import { upgradeFixtures } from './index';
import type { FixtureRow, FixtureTables } from './types';

/**
 * Issue 31, part 1: a database written by every earlier schema version upgrades to this one with its
 * data. Each fixture (generate.ts) is put in a data folder and a real desk is started on it: the desk
 * copies it into backups/ and upgrades it; then every row must be there once with the values it had,
 * every kind of row must read through the API, and lists, search, exports and a cycle must work.
 */

const names = Object.keys(migrations);
const latest = names.at(-1)!;
const ADD_A_FIXTURE = 'see docs/architecture.md, "Upgrades with data"';
const NOT_BUILT = 'the fixture databases were not built: a migration has no upgrade fixture (the first test names it)';

let folder: string;
let files: Map<string, string>;
/** The primary keys a database gets from the migrations alone (singleton rows), by table. */
let migrationRows: Map<string, Set<string>>;

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-upgrade-fixtures-'));
  const missing = names.filter((n) => !(n in upgradeFixtures));
  if (missing.length > 0) return;
  files = await buildFixtureDatabases(path.join(folder, 'fixtures'));
  const empty = new Database(':memory:');
  try {
    await migrateDatabase(empty);
    const schema = fixtureSchema(empty);
    migrationRows = new Map([...schema].map(([table, { key }]) => [table, new Set((empty.prepare(`SELECT * FROM "${table}"`).all() as FixtureRow[]).map((r) => keyOf(r, key)))]));
  } finally {
    empty.close();
  }
}, 60_000);
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

describe('upgrade fixtures', () => {
  it('exist for every migration, and for nothing else', () => {
    const missing = names.filter((n) => !(n in upgradeFixtures));
    expect(
      missing,
      missing.map((n) => `Migration ${n} has no upgrade fixture: add db/migrations/upgrade-fixtures/${n}.ts (rows of the tables it creates, values of the columns it adds, {} when it adds neither) and register it in upgrade-fixtures/index.ts; ${ADD_A_FIXTURE}`).join('\n'),
    ).toEqual([]);
    expect(Object.keys(upgradeFixtures).filter((n) => !names.includes(n))).toEqual([]);
  });

  it('hold, at each version, a row in every table and a value in every column of that version', () => {
    expect(files, NOT_BUILT).toBeDefined();
    const gaps: string[] = [];
    for (const name of names) {
      const unset = new Set(names.slice(0, names.indexOf(name) + 1).flatMap((n) => Object.keys(upgradeFixtures[n].unset ?? {})));
      const h = new Database(files.get(name)!, { readonly: true });
      try {
        const tables = readFixtureTables(h);
        for (const [table, { columns }] of fixtureSchema(h)) {
          const rows = tables[table];
          if (rows.length === 0) gaps.push(`${name}: no row in ${table}`);
          for (const column of columns) {
            if (rows.length > 0 && !unset.has(`${table}.${column}`) && rows.every((r) => r[column] === null)) gaps.push(`${name}: no value in ${table}.${column}`);
          }
        }
      } finally {
        h.close();
      }
    }
    expect(gaps, `Give each its row or value in the fixture of the version that added it (or list the column in that fixture's \`unset\`, saying why); ${ADD_A_FIXTURE}`).toEqual([]);
  });
});

/** The rows each later migration derives from the fixture's (data it moves), by table. */
function derivedRows(from: string, before: FixtureTables): FixtureTables {
  const derived: FixtureTables = {};
  for (const later of names.slice(names.indexOf(from) + 1)) {
    for (const [table, rows] of Object.entries(upgradeFixtures[later].derived?.(before) ?? {})) (derived[table] ??= []).push(...rows);
  }
  return derived;
}

/** Every row of `before` is in `after` once, with the value of each column it still has; nothing else is but derived and singleton rows. */
function expectRowsKept(from: string, before: FixtureTables, after: Database.Database): void {
  const schema = fixtureSchema(after);
  const derived = derivedRows(from, before);
  const problems: string[] = [];
  for (const [table, { key }] of schema) {
    const now = after.prepare(`SELECT * FROM "${table}"`).all() as FixtureRow[];
    const byKey = new Map(now.map((r) => [keyOf(r, key), r]));
    if (byKey.size !== now.length) problems.push(`${table}: ${now.length - byKey.size} rows share a key`);
    const expected = [...(before[table] ?? []), ...(derived[table] ?? [])];
    for (const row of expected) {
      const k = keyOf(row, key);
      const found = byKey.get(k);
      if (!found) {
        problems.push(`${table} ${k}: lost`);
        continue;
      }
      for (const [column, value] of Object.entries(row)) if (column in found && found[column] !== value) problems.push(`${table} ${k}.${column}: ${JSON.stringify(value)} became ${JSON.stringify(found[column])}`);
    }
    const known = new Set([...expected.map((r) => keyOf(r, key)), ...(migrationRows.get(table) ?? [])]);
    for (const k of byKey.keys()) if (!known.has(k)) problems.push(`${table} ${k}: appeared`);
  }
  expect(problems).toEqual([]);
}

describe.each(names)('a database of schema %s', (name) => {
  const version = schemaVersionOf(name);
  let desk: TestDesk | undefined;
  afterAll(async () => desk?.stop());

  it(`upgrades to ${latest} keeping every row, and the desk works on it`, async () => {
    expect(files, NOT_BUILT).toBeDefined();
    const dataDir = fs.mkdtempSync(path.join(folder, `desk-${version}-`));
    fs.copyFileSync(files.get(name)!, path.join(dataDir, 'desk.sqlite'));
    const fixture = new Database(files.get(name)!, { readonly: true });
    const before = readFixtureTables(fixture);
    fixture.close();

    const clock = new ManualClock('2026-03-10T12:00:00.000Z');
    desk = await startTestDesk({ dataDir, ownsDataDir: true, clock });

    // The copy taken before the upgrade, named with both versions, is the fixture as it was.
    const backups = fs.existsSync(path.join(dataDir, 'backups')) ? fs.readdirSync(path.join(dataDir, 'backups')) : [];
    const upgradeName = `desk-20260310T120000000Z-upgrade-${String(version).padStart(4, '0')}-to-${String(schemaVersionOf(latest)).padStart(4, '0')}.sqlite`;
    if (name === latest) expect(backups).toEqual([]);
    else {
      expect(backups).toEqual([upgradeName]);
      const copy = new Database(path.join(dataDir, 'backups', upgradeName), { readonly: true });
      try {
        expect(readFixtureTables(copy)).toEqual(before);
      } finally {
        copy.close();
      }
      const listed = await desk.api('GET', '/api/v1/backups');
      expect(listed.body.backups.map((b: { name: string }) => b.name)).toEqual([upgradeName]);
    }

    const after = new Database(path.join(dataDir, 'desk.sqlite'), { readonly: true });
    try {
      expectRowsKept(name, before, after);
    } finally {
      after.close();
    }

    for (const check of apiChecks) if (names.indexOf(check.since) <= names.indexOf(name)) await check.run(desk, before);
    await everyVersionChecks(desk, name, before);
  });
});
