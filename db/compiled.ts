import { CompiledQuery, type Compilable, type Insertable, type Kysely } from 'kysely';
import type { DB } from './schema';
import { runSync } from './statement-cache';
import { liveConnectionOf } from './transactions';

/**
 * Hot statements compiled once. Building a Kysely query (immutable nodes), running the
 * CamelCasePlugin over it and compiling it to SQL cost more per statement than SQLite's own work
 * on the hot paths (the activity row, the outbox event and the signal of every change). The SQL
 * only depends on the shape of the statement, so it is kept per shape and run with new parameters.
 */

type Shape = { sql: string } | null; // null: this shape is not safe to reuse, always build it

const insertShapes = new Map<string, Shape>();
/** Distinct shapes kept (tables x column sets in use); a bound, not a working limit. */
const MAX_SHAPES = 500;

/** A plain SQLite parameter: anything else (a Kysely expression, a Date...) goes through the builder. */
function plain(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' || Buffer.isBuffer(value);
}

/**
 * `db.insertInto(table).values(row).execute()`, with the SQL compiled once per table and column
 * list (undefined values are left out, as Kysely leaves them out). The first insert of a shape is
 * compiled by Kysely and checked to bind the row's values in the row's key order; only then is the
 * shape reused. Works on the outer db and on a transaction (the same plugins compile both).
 */
export async function insertRow<T extends keyof DB & string>(db: Kysely<DB>, table: T, row: Insertable<DB[T]>): Promise<void> {
  const record = row as Record<string, unknown>;
  const keys: string[] = [];
  const values: unknown[] = [];
  let reusable = true;
  for (const key in record) {
    const value = record[key];
    if (value === undefined) continue;
    if (!plain(value)) reusable = false;
    keys.push(key);
    values.push(value);
  }
  const shapeKey = `${table}\u0000${keys.join('\u0000')}`;
  const shape = reusable ? insertShapes.get(shapeKey) : null;
  if (shape) {
    // Inside an open transaction the statement runs at once on its connection: the SQL and the
    // values are what Kysely would send, and an insert returns no rows for the plugins to map.
    const connection = liveConnectionOf(db);
    if (connection !== null && runSync(connection, shape.sql, values) !== undefined) return;
    await db.executeQuery(CompiledQuery.raw(shape.sql, values));
    return;
  }
  const compiled = db.insertInto(table).values(row).compile();
  if (reusable && shape === undefined) {
    const same = compiled.parameters.length === values.length && compiled.parameters.every((p, i) => p === values[i]);
    if (insertShapes.size >= MAX_SHAPES) insertShapes.clear();
    insertShapes.set(shapeKey, same ? { sql: compiled.sql } : null);
  }
  await db.executeQuery(compiled);
}

/**
 * A query without parameters, compiled on first use and then run as compiled (its rows still pass
 * through the plugins, e.g. snake_case names back to camelCase).
 */
export function compiledOnce<R>(build: (db: Kysely<DB>) => Compilable<R>): (db: Kysely<DB>) => Promise<R[]> {
  let compiled: CompiledQuery<R> | undefined;
  // Column names as SQLite returns them -> as the plugins return them, learnt from a first answer
  // with rows; until then (or if the plugins did more than rename) every call goes through Kysely.
  let names: [string, string][] | null | undefined;
  return async (db) => {
    if (compiled === undefined) {
      const fresh = build(db).compile();
      if (fresh.parameters.length > 0) throw new Error(`compiledOnce: the query takes parameters: ${fresh.sql}`);
      compiled = fresh;
    }
    // Inside an open transaction: straight on its connection, renamed as the plugins rename.
    const connection = liveConnectionOf(db);
    if (connection !== null && names) {
      const raw = runSync<Record<string, unknown>>(connection, compiled.sql, compiled.parameters);
      if (raw !== undefined) return raw.rows.map((row) => renamed(row, names as [string, string][]) as R);
    }
    const rows = (await db.executeQuery(compiled)).rows;
    if (names === undefined && connection !== null && rows.length > 0) names = learnNames(runSync<Record<string, unknown>>(connection, compiled.sql, compiled.parameters)?.rows, rows);
    return rows;
  };
}

function renamed(row: Record<string, unknown>, names: [string, string][]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [from, to] of names) out[to] = row[from];
  return out;
}

/** The renaming that turns `raw` rows into `mapped` ones, or null when the plugins did anything else. */
export function learnNames(raw: Record<string, unknown>[] | undefined, mapped: unknown[]): [string, string][] | null {
  if (raw === undefined || raw.length !== mapped.length || raw.length === 0) return null;
  const from = Object.keys(raw[0]);
  const to = Object.keys(mapped[0] as object);
  if (from.length !== to.length) return null;
  const names = from.map((f, i): [string, string] => [f, to[i]]);
  const same = raw.every((row, r) => {
    const other = mapped[r] as Record<string, unknown>;
    return Object.keys(other).length === names.length && names.every(([f, t]) => row[f] === other[t]);
  });
  return same ? names : null;
}

/**
 * Runs one fixed SQL statement with `params` in the caller's transaction: straight on its
 * connection's kept statement while it is open, else through Kysely. For writes repeated per row
 * (a cycle's apply touches a thousand tasks and memory entries) where building and compiling each
 * with the query builder would cost more than SQLite's own work.
 */
export async function runStatement(trx: Kysely<DB>, sqlText: string, params: readonly unknown[]): Promise<void> {
  const connection = liveConnectionOf(trx);
  if (connection !== null && runSync(connection, sqlText, params) !== undefined) return;
  await trx.executeQuery(CompiledQuery.raw(sqlText, [...params]));
}
