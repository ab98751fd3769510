/**
 * The upgrade fixtures (issue 31): for every migration, the rows a desk of that schema version could
 * write, so a database of every earlier version can be rebuilt (`generate.ts`) and upgraded with its
 * data (`upgrades.test.ts`). Each version's file says only what that version added: rows of the tables
 * it created (or of kinds of rows it made possible), and values of the columns it added on rows of
 * earlier versions. Values are stored values (snake_case columns, JSON text, ISO times), written as the
 * desk of that version wrote them.
 */

/** One row as stored: column name to value. */
export type FixtureRow = Record<string, string | number | null>;

export interface VersionFixture {
  /** Rows this version could write, by table; only columns that exist at this version. */
  rows?: Record<string, FixtureRow[]>;
  /**
   * Values of the columns this version added, on rows of earlier versions: by table, then the row's
   * primary key (several columns joined with `|`).
   */
  set?: Record<string, Record<string, FixtureRow>>;
  /**
   * Columns (`table.column`) this version added that no row may hold a value in, with why; every
   * other column of the schema holds a value in at least one row of the fixture.
   */
  unset?: Record<string, string>;
  /**
   * Rows this migration derives from older rows when it upgrades a database of an earlier version
   * (`from`: the older fixture's rows), by table, as they read after the upgrade.
   */
  derived?: (from: FixtureTables) => Record<string, FixtureRow[]>;
}

/** A whole fixture's rows, by table. */
export type FixtureTables = Record<string, FixtureRow[]>;

/** A fixed id in the desk's format (`<prefix>_` and 26 characters), numbered within its prefix. */
export const fid = (prefix: string, n: number): string => `${prefix}_01JNQFX${String(n).padStart(19, '0')}`;

/** An instant on a fixed day of March 2026 (the test desk's clock reads 2026-03-10 12:00 UTC). */
export const at = (day: number, time = '09:00:00'): string => `2026-03-${String(day).padStart(2, '0')}T${time}.000Z`;
