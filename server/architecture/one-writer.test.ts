import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUNTIME_NAMED_WRITES, TABLE_OWNERS, TRIGGERS, WRITE_EXCEPTIONS } from './table-owners';
import { findTableWrites, schemaTables, snakeOf } from './table-writes';

const ROOT = path.resolve(import.meta.dirname, '../..');
const tables = schemaTables(fs.readFileSync(path.join(ROOT, 'db/schema.ts'), 'utf8'));
const owners: Record<string, string> = TABLE_OWNERS;

/** Application code: every .ts under server/ and db/ but tests, migrations and generated files. */
function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (rel !== 'db/migrations' && rel !== 'server/generated') walk(rel);
      } else if (rel.endsWith('.ts') && !rel.endsWith('.test.ts')) files.push(rel);
    }
  };
  walk('server');
  walk('db');
  return files;
}

/** "file:line writes table (statement)" for every write outside the table's owner. */
function strayWrites(): string[] {
  const stray: string[] = [];
  for (const file of sourceFiles()) {
    const exception = WRITE_EXCEPTIONS[file];
    for (const w of findTableWrites(file, fs.readFileSync(path.join(ROOT, file), 'utf8'), tables)) {
      if (exception && (exception.tables === 'any' || (w.table !== null && exception.tables.includes(w.table as never)))) continue;
      if (w.table === null) {
        if (file in RUNTIME_NAMED_WRITES) continue;
        stray.push(`${file}:${w.line} writes a table named at run time (${w.text}); only an owner listed in RUNTIME_NAMED_WRITES may`);
      } else if (owners[w.table] !== file) {
        stray.push(`${file}:${w.line} writes ${w.table} (${w.text}); its owner is ${owners[w.table] ?? 'not declared'}`);
      }
    }
  }
  return stray;
}

describe('one writer per table', () => {
  it('reads the tables of db/schema.ts, in SQL as the CamelCasePlugin names them', () => {
    expect(tables).toContain('workspace');
    expect(tables).toContain('taskTags');
    expect(snakeOf('taskTags')).toBe('task_tags');
    expect(tables.length).toBeGreaterThan(40);
  });

  it('declares an owner for every table, and only for tables of the schema', () => {
    expect(tables.filter((t) => !(t in owners))).toEqual([]);
    expect(Object.keys(owners).filter((t) => !tables.includes(t))).toEqual([]);
  });

  it('names owners that exist', () => {
    const files = [...new Set([...Object.values(owners), ...Object.keys(RUNTIME_NAMED_WRITES), ...Object.keys(WRITE_EXCEPTIONS)])].filter((f) => f !== TRIGGERS);
    expect(files.filter((f) => !fs.existsSync(path.join(ROOT, f)))).toEqual([]);
  });

  it('lets a store name its table at run time only among tables it owns', () => {
    const foreign = Object.entries(RUNTIME_NAMED_WRITES).flatMap(([file, reach]) => reach.filter((t) => owners[t] !== file).map((t) => `${file} -> ${t}`));
    expect(foreign).toEqual([]);
  });

  it('finds no write outside the owner of its table', () => {
    expect(strayWrites()).toEqual([]);
  });
});

describe('findTableWrites', () => {
  const find = (source: string) => findTableWrites('x.ts', source, tables).map((w) => [w.table, w.line]);

  it('finds Kysely writes by table name, with an alias, and through insertRow', () => {
    const source = [
      "await trx.insertInto('tasks').values(row).execute();",
      "await trx.updateTable('memory as m').set({ pinned: 1 }).execute();",
      "await trx.with('old', (q) => q.selectFrom('tasks').selectAll()).deleteFrom('taskTags').execute();",
      "await trx.replaceInto('workspace').values(row).execute();",
      "await insertRow(trx, 'activity', row);",
      "await trx.selectFrom('sources').selectAll().execute();",
    ].join('\n');
    expect(find(source)).toEqual([['tasks', 1], ['memory', 2], ['taskTags', 3], ['workspace', 4], ['activity', 5]]);
  });

  it('finds SQL writes in strings and templates, by their snake_case names', () => {
    const source = [
      "const A = 'insert or ignore into cost_daily (day) values (?)';",
      'await sql`UPDATE "tasks" SET status = ${to} WHERE id = ${id}`.execute(trx);',
      'await sql`DELETE FROM ${sql.table(\'task_tags\')} WHERE tag = ${tag}`.execute(trx);',
      "const B = `replace into memory_tags (memory_id, tag) values (?, ?)`;",
      'await sql`DELETE FROM ${t} WHERE tag = ${from}`.execute(trx);',
    ].join('\n');
    expect(find(source)).toEqual([['costDaily', 1], ['tasks', 2], ['taskTags', 3], ['memoryTags', 4], [null, 5]]);
  });

  it('ignores comments, reads, English and names that are not tables', () => {
    const source = [
      "// trx.insertInto('tasks') would be a write, in code",
      '/* DELETE FROM tasks */',
      "const help = 'Update tasks when you can; delete from the list what is done';",
      "await sql`SELECT * FROM tasks WHERE updated_at > ${since}`.execute(db);",
      "await sql`WITH old AS (SELECT 1) DELETE FROM old_rows`.execute(db);",
    ].join('\n');
    expect(find(source)).toEqual([]);
  });
});
