import { sql, type RawBuilder } from 'kysely';
import { invalid } from './errors';

/**
 * Lists: every GET that returns rows takes `limit` (bounds and default declared once per list,
 * with `defineList`) and an opaque `cursor`, and answers `{ <rows>: [...], nextCursor }`, where
 * `nextCursor` is null on the last page. The cursor is a keyset position (the sort key of the
 * last row served), so pages stay stable while new rows arrive and each page is an index range,
 * never an OFFSET scan. A cursor is only meaningful with the filters it was served with.
 */

export interface ListSpec {
  /** The operationId of the list in the OpenAPI document (a test compares the documented bounds). */
  operationId: string;
  defaultLimit: number;
  maxLimit: number;
}

const registry: ListSpec[] = [];

/** Declares a list's limit bounds once; the controller documents the same numbers (tested). */
export function defineList(operationId: string, defaultLimit: number, maxLimit: number): ListSpec {
  const spec = { operationId, defaultLimit, maxLimit };
  registry.push(spec);
  return spec;
}

/** Every list declared so far (for the OpenAPI bounds test). */
export const declaredLists = (): readonly ListSpec[] => registry;

/** The limit of a request: the list's default when absent, else an integer within 1..max. */
export function listLimit(spec: ListSpec, value: number | undefined, field = 'limit'): number {
  if (value === undefined) return spec.defaultLimit;
  if (!Number.isInteger(value) || value < 1 || value > spec.maxLimit) throw invalid(field, `must be an integer from 1 to ${spec.maxLimit}`);
  return value;
}

/** A sort key: the values of the ordering columns of one row, most significant first. */
export type CursorKey = readonly (string | number)[];

export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** The types of a cursor's values, most significant first, e.g. `['string', 'number']`. */
export type CursorShape = readonly ('string' | 'number')[];

/**
 * Reads a cursor of `shape` (a number: that many strings or numbers; a CursorShape: exactly those
 * types, so a tampered cursor cannot compare a text value against an integer column). Anything
 * else is a 422 naming the field.
 */
export function decodeCursor(cursor: string | undefined, shape: number | CursorShape, field = 'cursor'): CursorKey | undefined {
  if (cursor === undefined) return undefined;
  let key: unknown;
  try {
    key = cursor.length <= 512 ? JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) : null;
  } catch {
    key = null;
  }
  const fits = (v: unknown, i: number) =>
    typeof shape === 'number' ? typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) : typeof v === shape[i] && (typeof v !== 'number' || Number.isFinite(v));
  const arity = typeof shape === 'number' ? shape : shape.length;
  const ok = Array.isArray(key) && key.length === arity && key.every(fits);
  if (!ok) throw invalid(field, 'is not a cursor this list served; pass nextCursor from the previous page as it is');
  return key as CursorKey;
}

/** The parameters of one page request, resolved. */
export interface PageRequest {
  limit: number;
  after: CursorKey | undefined;
}

export function pageRequest(spec: ListSpec, query: { limit?: number; cursor?: string }, shape: number | CursorShape): PageRequest {
  return { limit: listLimit(spec, query.limit), after: decodeCursor(query.cursor, shape) };
}

/**
 * `WHERE (a, b) < (x, y)` for a descending list (`>` ascending): rows after the cursor. SQLite
 * compares row values left to right and serves the range from an index on (a, b).
 * Columns are SQL names as Kysely would write them (`created_at`, `signals.rowid`).
 */
export function afterKey(columns: readonly string[], key: CursorKey, order: 'asc' | 'desc'): RawBuilder<boolean> {
  const cols = sql.join(columns.map((c) => sql.ref(c)));
  const values = sql.join(key.map((v) => sql`${v}`));
  return order === 'desc' ? sql<boolean>`(${cols}) < (${values})` : sql<boolean>`(${cols}) > (${values})`;
}

/** afterKey over SQL expressions (a computed sort key: a rank, a flag) rather than column names. */
export function afterKeyOf(expressions: readonly RawBuilder<unknown>[], key: CursorKey, order: 'asc' | 'desc'): RawBuilder<boolean> {
  const keys = sql.join(expressions);
  const values = sql.join(key.map((v) => sql`${v}`));
  return order === 'desc' ? sql<boolean>`(${keys}) < (${values})` : sql<boolean>`(${keys}) > (${values})`;
}

/** A served page: at most `limit` rows, and the cursor of the next page (null when none). */
export interface Page<T> {
  rows: T[];
  nextCursor: string | null;
}

/** Cuts rows fetched with `limit + 1` into a page: the extra row only tells that more exist. */
export function toPage<T>(rows: T[], limit: number, keyOf: (row: T) => CursorKey): Page<T> {
  if (rows.length <= limit) return { rows, nextCursor: null };
  const served = rows.slice(0, limit);
  return { rows: served, nextCursor: encodeCursor(keyOf(served[served.length - 1])) };
}
