import Database from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { userTables } from './db-fingerprint';

/**
 * Which tables each read's SQL names, for the fuzz: after an operation's writes, a read whose SQL
 * names none of the tables the writes changed answers from the same rows as on the full desk, where
 * it answered, so only the others are read again (most of the fuzz's time went to reading the whole
 * product after every write).
 */

/** A read's tables, or `always`: it ran no SQL (what it answers comes from elsewhere), or it read a derived table the fingerprint leaves out. */
export type ReadTables = ReadonlySet<string> | 'always';

type Method = (...args: unknown[]) => unknown;

/**
 * Runs `fn` with every SQL text this process runs told to `seen`: better-sqlite3's statements
 * share one native prototype (Kysely's and the statement cache's alike), and `exec` runs the rest.
 * The methods are put back afterwards, so nothing else in the process is affected once it returns.
 */
async function watchingSql<T>(seen: (sqlText: string) => void, fn: () => Promise<T>): Promise<T> {
  const probe = new Database(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, Method>;
  probe.close();
  const database = Database.prototype as unknown as Record<string, Method>;
  const saved: [Record<string, Method>, string, Method][] = [];
  const wrap = (proto: Record<string, Method>, name: string, sqlOf: (self: { source?: string }, args: unknown[]) => unknown) => {
    const original = proto[name]!;
    saved.push([proto, name, original]);
    proto[name] = function (this: { source?: string }, ...args: unknown[]) {
      const text = sqlOf(this, args);
      if (typeof text === 'string') seen(text);
      return original.apply(this, args);
    };
  };
  for (const name of ['all', 'get', 'run', 'iterate']) wrap(statement, name, (self) => self.source);
  wrap(database, 'exec', (_self, args) => args[0]);
  try {
    return await fn();
  } finally {
    for (const [proto, name, original] of saved) proto[name] = original;
  }
}

/**
 * The tables each of `paths` reads, found by running it once through `read` on the desk as it is.
 * Before each read every table takes a write that changes no row: it empties the in-memory caches
 * of rows (db/table-cache.ts), so a read served from one shows the SQL it runs when the cache is cold.
 */
export async function recordReadTables<DB>(db: Kysely<DB>, paths: readonly string[], read: (path: string) => Promise<unknown>): Promise<Map<string, ReadTables>> {
  const raw = db.withoutPlugins();
  const { rows } = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table'`.execute(raw);
  const all = rows.map((r) => r.name);
  const fingerprinted = new Set(await userTables(db));
  const plain = all.filter((t) => fingerprinted.has(t));
  const named = all.map((table) => ({ table, pattern: new RegExp(`(?<![\\w$])${table.replace(/[^\w]/g, '\\$&')}(?![\\w$])`, 'i') }));
  const result = new Map<string, ReadTables>();
  for (const path of paths) {
    for (const table of plain) await sql`DELETE FROM ${sql.table(table)} WHERE 0`.execute(raw);
    // Listeners of those writes (the event stream, the outbound worker) run their SQL now, not during the read.
    await new Promise((resolve) => setImmediate(resolve));
    const texts = new Set<string>();
    await watchingSql((text) => texts.add(text), () => read(path));
    const tables = new Set<string>();
    for (const text of texts) for (const { table, pattern } of named) if (pattern.test(text)) tables.add(table);
    result.set(path, tables.size === 0 || [...tables].some((t) => !fingerprinted.has(t)) ? 'always' : tables);
  }
  return result;
}

/** The tables whose rows differ between two fingerprints. */
export function changedTables(before: Record<string, string[]>, after: Record<string, string[]>): Set<string> {
  const changed = new Set<string>();
  for (const table of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = before[table] ?? [];
    const b = after[table] ?? [];
    if (a.length !== b.length || a.some((row, i) => row !== b[i])) changed.add(table);
  }
  return changed;
}

/** Whether a read must be made again after writes that changed `changed`. */
export const readAffected = (tables: ReadTables | undefined, changed: ReadonlySet<string>): boolean =>
  tables === undefined || tables === 'always' || [...tables].some((t) => changed.has(t));
