import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrateDatabase } from '../../migrate';
import { migrations } from '../index';
import { upgradeFixtures } from './index';
import type { FixtureRow, FixtureTables, VersionFixture } from './types';

/**
 * Builds, for each migration N, the database a desk of schema version N would have written: the
 * schema migrated up to N, then the rows of every version up to N, each version's columns set as
 * that version wrote them. `npx tsx db/migrations/upgrade-fixtures/generate.ts <folder>` writes them
 * all to a folder to look at; upgrades.test.ts builds them in a temp folder and upgrades each one.
 */

/** When the fixtures' migrations were applied, recorded in kysely_migration. */
const MIGRATED_AT = new Date('2026-03-01T00:00:00.000Z');

/** Tables kept by triggers (the search index) and bookkeeping: never written by a fixture. */
export function isDerivedTable(name: string, virtualTables: string[]): boolean {
  if (name.startsWith('sqlite_') || name.startsWith('kysely_') || name === 'search_docs' || name === 'search_queue' || name === 'search_pending') return true;
  return virtualTables.some((v) => name === v || (name.startsWith(`${v}_`) && /_(data|idx|content|docsize|config)$/.test(name)));
}

/** The tables of a database a fixture writes, each with its columns and primary key columns. */
export function fixtureSchema(h: Database.Database): Map<string, { columns: string[]; key: string[] }> {
  const objects = h.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { name: string; sql: string | null }[];
  const virtual = objects.filter((o) => /^CREATE VIRTUAL TABLE/i.test(o.sql ?? '')).map((o) => o.name);
  const schema = new Map<string, { columns: string[]; key: string[] }>();
  for (const { name } of objects) {
    if (isDerivedTable(name, virtual)) continue;
    const info = h.prepare(`SELECT name, pk FROM pragma_table_info(?)`).all(name) as { name: string; pk: number }[];
    schema.set(name, {
      columns: info.map((c) => c.name),
      key: info
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name),
    });
  }
  return schema;
}

/** A row's primary key as the fixtures write it: its key columns' values joined with `|`. */
export const keyOf = (row: FixtureRow, key: string[]): string => key.map((c) => String(row[c])).join('|');

function fixtureOf(name: string): VersionFixture {
  const fixture = upgradeFixtures[name];
  if (!fixture) throw new Error(`migration ${name} has no upgrade fixture (db/migrations/upgrade-fixtures/${name}.ts)`);
  return fixture;
}

/** Writes the rows of every version up to `upTo` into `h` (a database at that version), in one transaction. */
function writeRows(h: Database.Database, upTo: string): void {
  const names = Object.keys(migrations);
  const schema = fixtureSchema(h);
  const columnsOf = (table: string, version: string, columns: string[]) => {
    const at = schema.get(table);
    if (!at) throw new Error(`upgrade fixture ${version} writes table ${table}, which does not exist at ${upTo}`);
    // A column the version itself does not have is a mistake; one a later migration dropped is left out.
    const missing = columns.filter((c) => !at.columns.includes(c));
    if (version === upTo && missing.length > 0) throw new Error(`upgrade fixture ${version} writes ${table}.${missing.join(', ')}, which ${version} does not have`);
    return { at, kept: columns.filter((c) => at.columns.includes(c)) };
  };
  h.exec('BEGIN');
  try {
    // Rows of one version may name rows of a later file of the same fixture: keys are checked at COMMIT.
    h.pragma('defer_foreign_keys = ON');
    for (const version of names.slice(0, names.indexOf(upTo) + 1)) {
      const fixture = fixtureOf(version);
      for (const [table, rows] of Object.entries(fixture.rows ?? {})) {
        for (const row of rows) {
          const { kept } = columnsOf(table, version, Object.keys(row));
          h.prepare(`INSERT INTO "${table}" (${kept.map((c) => `"${c}"`).join(', ')}) VALUES (${kept.map(() => '?').join(', ')})`).run(...kept.map((c) => row[c]));
        }
      }
      for (const [table, byKey] of Object.entries(fixture.set ?? {})) {
        for (const [key, values] of Object.entries(byKey)) {
          const { at, kept } = columnsOf(table, version, Object.keys(values));
          if (kept.length === 0) continue;
          const parts = key.split('|');
          const { changes } = h
            .prepare(`UPDATE "${table}" SET ${kept.map((c) => `"${c}" = ?`).join(', ')} WHERE ${at.key.map((c) => `"${c}" = ?`).join(' AND ')}`)
            .run(...kept.map((c) => values[c]), ...parts);
          if (changes !== 1) throw new Error(`upgrade fixture ${version} sets columns of ${table} row ${key}, which the fixture of ${upTo} does not hold`);
        }
      }
    }
    h.exec('COMMIT');
  } catch (err) {
    if (h.inTransaction) h.exec('ROLLBACK');
    throw err;
  }
}

/**
 * Writes the fixture database of each migration into `folder` as `<migration>.sqlite` and answers
 * their paths by migration name. The schema is migrated once, one version at a time, and copied at
 * each (VACUUM INTO), so building all of them costs one migration run, not one per version.
 */
export async function buildFixtureDatabases(folder: string): Promise<Map<string, string>> {
  fs.mkdirSync(folder, { recursive: true });
  const files = new Map<string, string>();
  const chain = new Database(path.join(folder, 'schema-chain.sqlite'));
  try {
    for (const name of Object.keys(migrations)) {
      fixtureOf(name);
      await migrateDatabase(chain, { target: name, now: () => MIGRATED_AT });
      const file = path.join(folder, `${name}.sqlite`);
      fs.rmSync(file, { force: true });
      chain.prepare('VACUUM INTO ?').run(file);
      const h = new Database(file);
      try {
        h.pragma('foreign_keys = ON');
        writeRows(h, name);
      } finally {
        h.close();
      }
      files.set(name, file);
    }
  } finally {
    chain.close();
    fs.rmSync(path.join(folder, 'schema-chain.sqlite'), { force: true });
  }
  return files;
}

/** Every fixture table's rows as stored, by table (derived tables left out). */
export function readFixtureTables(h: Database.Database): FixtureTables {
  const tables: FixtureTables = {};
  for (const table of fixtureSchema(h).keys()) tables[table] = h.prepare(`SELECT * FROM "${table}"`).all() as FixtureRow[];
  return tables;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const folder = process.argv[2];
  if (!folder) {
    console.error('usage: npx tsx db/migrations/upgrade-fixtures/generate.ts <folder>');
    process.exit(2);
  }
  const files = await buildFixtureDatabases(path.resolve(folder));
  for (const file of files.values()) console.log(file);
}
