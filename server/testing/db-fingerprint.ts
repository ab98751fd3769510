import { sql, type Kysely } from 'kysely';

/**
 * Every user table's rows, by table name, each row as JSON in column order, rows sorted.
 * Two fingerprints are equal exactly when every table holds the same rows, so
 * `expect(await dbFingerprint(db)).toEqual(before)` proves a request changed nothing, and a
 * failure shows which table differs. SQLite's own tables (`sqlite_*`) and Kysely's migration
 * bookkeeping (`kysely_*`) and full-text indexes (FTS5 tables and search_docs, kept by triggers) are left out; every
 * other table is in, including tables added later.
 */
export type DbFingerprint = Record<string, string[]>;

/**
 * Plain tables that are derived data kept by triggers like the FTS tables: the search index's
 * row map (db/migrations/0014_search.ts) and its queue of rows not indexed yet (0018). Restoring them by hand would collide with the rows the
 * triggers write when the base tables are restored.
 */
const DERIVED_TABLES = ['search_docs', 'search_queue'];

/** The user tables of the database, by name (no `sqlite_*`, no `kysely_*`). */
export async function userTables<DB>(db: Kysely<DB>): Promise<string[]> {
  const { rows } = await sql<{ name: string; sql: string | null }>`
    SELECT name, sql FROM sqlite_master
    WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE 'kysely\\_%' ESCAPE '\\'
    ORDER BY name`.execute(db.withoutPlugins());
  // Full-text indexes (virtual tables and their shadow tables) are derived data kept by triggers:
  // their shadow tables may not be written directly, and their content follows the base tables.
  const virtual = rows.filter((r) => /^CREATE VIRTUAL TABLE/i.test(r.sql ?? '')).map((r) => r.name);
  const derived = (name: string) =>
    DERIVED_TABLES.includes(name) || virtual.some((v) => name === v || (name.startsWith(`${v}_`) && /_(data|idx|content|docsize|config)$/.test(name)));
  return rows.filter((r) => !derived(r.name)).map((r) => r.name);
}

const bigintAware = (_key: string, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value);
/** A row as JSON; a replacer runs for every value, so it is used only for a row holding a bigint (JSON.stringify refuses those). */
function rowJson(row: Record<string, unknown>): string {
  for (const key in row) if (typeof row[key] === 'bigint') return JSON.stringify(row, bigintAware);
  return JSON.stringify(row);
}

export async function dbFingerprint<DB>(db: Kysely<DB>): Promise<DbFingerprint> {
  // Raw column names (no CamelCasePlugin) and every column, whatever the schema types say.
  const raw = db.withoutPlugins();
  const fingerprint: DbFingerprint = {};
  for (const table of await userTables(db)) {
    const { rows } = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}`.execute(raw);
    fingerprint[table] = rows.map(rowJson).sort();
  }
  return fingerprint;
}

/**
 * A mark that moves with every write: the rows this connection inserted, updated or deleted
 * (SQLite's total_changes(), statements later rolled back included) and the commits of other
 * connections to the file (PRAGMA data_version: the cycle worker's). Equal marks mean no row was
 * written in between, so a fingerprint taken after the first still holds: a test compares
 * fingerprints only when the mark moved, instead of reading every table again for nothing.
 */
export async function writeMark<DB>(db: Kysely<DB>): Promise<string> {
  const raw = db.withoutPlugins();
  const { rows } = await sql<{ changes: number }>`SELECT total_changes() AS changes`.execute(raw);
  const { rows: version } = await sql<{ data_version: number }>`PRAGMA data_version`.execute(raw);
  return `${rows[0].changes}/${version[0].data_version}`;
}

