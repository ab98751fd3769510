import type { Kysely } from 'kysely';
import type { DB } from './schema';
import { onTableWrite } from './statement-cache';
import { isInTransaction } from './transactions';

/**
 * Values read from tables, kept in memory until a committed write to one of those tables (any
 * code path: onTableWrite of db/statement-cache.ts drops them after the COMMIT, before the writer
 * is answered). The rules that keep them committed live here, so no reader needs a guard:
 *  - inside a transaction nothing is served (the transaction may have written the tables: it must
 *    read its own writes) and nothing is kept (what it reads is not committed and could be rolled back);
 *  - a read that a committed write overtook is not kept (it may hold the rows from before it).
 * Outside a transaction a read waits for any open one (one connection), so it reads committed rows.
 */
export class TableCache<K, V> {
  private readonly kept = new Map<K, V>();
  private version = 0;

  /** A committed write to one of the tables: forget everything. */
  invalidate(): void {
    this.version += 1;
    this.kept.clear();
  }

  /** What is kept for `key` and may be served here; undefined inside a transaction. */
  get(key: K): V | undefined {
    return isInTransaction() ? undefined : this.kept.get(key);
  }

  /**
   * Reads `key` with `load` and keeps what `keep` makes of it (the value itself by default; a copy
   * when callers may change what they get), unless that is not allowed (see above).
   */
  async load(key: K, load: () => Promise<V>, keep?: (value: V) => V): Promise<V> {
    if (isInTransaction()) return load();
    const version = this.version;
    const value = await load();
    if (version === this.version) this.kept.set(key, keep ? keep(value) : value);
    return value;
  }
}

const caches = new WeakMap<Kysely<DB>, Map<string, TableCache<unknown, unknown> | null>>();

/**
 * The cache called `name` of `db`, dropped by committed writes to `tables` (SQL names), created on
 * first use. Null for a database that cannot report its writes: then nothing may be kept.
 */
export function tableCache<K, V>(db: Kysely<DB>, name: string, tables: readonly string[]): TableCache<K, V> | null {
  let named = caches.get(db);
  if (named === undefined) {
    named = new Map();
    caches.set(db, named);
  }
  let cache = named.get(name);
  if (cache === undefined) {
    const fresh = new TableCache<unknown, unknown>();
    const subscribed = tables.map((table) => onTableWrite(db, table, () => fresh.invalidate()));
    cache = subscribed.every((stop) => stop !== null) ? fresh : null;
    named.set(name, cache);
  }
  return cache as TableCache<K, V> | null;
}
