import { sql, type Kysely } from 'kysely';

/**
 * The search index (GET /search, GET /activity `q`, the task comment search): one FTS5 table over
 * signals, tasks, outputs, memory, comments, the activity log and sources, kept by SQL triggers so
 * every write path (services, the loop, fixtures, a worker's own connection) keeps it in sync.
 *
 * - search_docs maps each indexed row to the FTS rowid: `doc_id` (INTEGER PRIMARY KEY, so stable
 *   across VACUUM, unlike the implicit rowid of the TEXT-keyed source tables) with (kind, ref)
 *   unique. Updates and deletes find the FTS row by rowid through it; an FTS UNINDEXED id column
 *   (as memory_fts has) would be a full scan of the index for each of them. It also holds what a
 *   hit needs without reading the source table: when it happened (`at`) and, for comments, the
 *   task (`parent`).
 * - search_fts holds title, body and tags (a label column: tags, a signal's kind, an activity
 *   row's kind, a source's type), ranked by bm25 with the title above tags above the body, and
 *   `kind` (signal, task, ...: weight 0) so a kind filter is part of the MATCH and FTS5 intersects
 *   it with the words instead of reading every match. Tokenizer unicode61 without stemming: prefix
 *   matching of the word being typed then behaves (a stemmed index would miss `launchi*` against
 *   `launching`). No prefix indexes: each one roughly doubled the index's cost per insert,
 *   paid by POST /signals and every
 *   change's activity row; short prefixes are handled by the query instead (MIN_PREFIX_LENGTH and
 *   RANK_WINDOW in server/domain/search/rules.ts).
 *   The text is stored (not contentless) because snippets need it; at 100k signals the index is
 *   about the size of their text again.
 */

interface Kind {
  kind: string;
  table: string;
  /** SQL over `r` (the new row) for each column. */
  title: string;
  body: string;
  tags: string;
  /** Columns whose update changes the indexed text. */
  watched: string[];
  parent?: string;
  /** The table of this kind's tags (its id column), folded into the tags column. */
  tagTable?: { table: string; key: string };
}

const tagsOf = (table: string, key: string, ref: string) => `(SELECT coalesce(group_concat(tag, ' '), '') FROM ${table} WHERE ${key} = ${ref})`;

export const SEARCH_KINDS: Kind[] = [
  { kind: 'signal', table: 'signals', title: 'r.title', body: 'r.detail', tags: 'r.kind', watched: ['title', 'detail', 'kind'] },
  {
    kind: 'task',
    table: 'tasks',
    title: 'r.title',
    body: "r.summary || ' ' || r.goal || ' ' || r.context",
    tags: tagsOf('task_tags', 'task_id', 'r.id'),
    watched: ['title', 'summary', 'goal', 'context'],
    tagTable: { table: 'task_tags', key: 'task_id' },
  },
  {
    kind: 'artifact',
    table: 'artifacts',
    title: 'r.title',
    body: 'r.content',
    tags: tagsOf('artifact_tags', 'artifact_id', 'r.id'),
    watched: ['title', 'content'],
    tagTable: { table: 'artifact_tags', key: 'artifact_id' },
  },
  {
    kind: 'memory',
    table: 'memory',
    title: 'r.title',
    body: 'r.content',
    tags: tagsOf('memory_tags', 'memory_id', 'r.id'),
    watched: ['title', 'content'],
    tagTable: { table: 'memory_tags', key: 'memory_id' },
  },
  { kind: 'comment', table: 'task_comments', title: "''", body: 'r.text', tags: "''", watched: ['text'], parent: 'r.task_id' },
  { kind: 'activity', table: 'activity', title: "''", body: 'r.detail', tags: 'r.kind', watched: ['detail', 'kind'] },
  {
    kind: 'source',
    table: 'sources',
    title: 'r.label',
    body: "coalesce(r.url, '') || ' ' || coalesce(r.notes, '')",
    tags: 'r.type',
    watched: ['label', 'url', 'notes', 'type'],
  },
];

const withRow = (expr: string, ref: 'new' | 'old') => expr.replace(/\br\./g, `${ref}.`);

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE search_docs (
      doc_id INTEGER PRIMARY KEY,
      kind TEXT NOT NULL,
      ref TEXT NOT NULL,
      parent TEXT,
      at TEXT NOT NULL,
      UNIQUE (kind, ref)
    )`.execute(db);
  await sql`CREATE INDEX search_docs_parent ON search_docs (parent) WHERE parent IS NOT NULL`.execute(db);
  await sql`CREATE VIRTUAL TABLE search_fts USING fts5(title, body, tags, kind, tokenize = 'unicode61 remove_diacritics 2')`.execute(db);

  for (const k of SEARCH_KINDS) {
    const docOf = (ref: string) => `(SELECT doc_id FROM search_docs WHERE kind = '${k.kind}' AND ref = ${ref})`;
    await sql
      .raw(
        `CREATE TRIGGER search_${k.table}_insert AFTER INSERT ON ${k.table} BEGIN
          INSERT INTO search_docs (kind, ref, parent, at) VALUES ('${k.kind}', new.id, ${k.parent ? withRow(k.parent, 'new') : 'NULL'}, new.created_at);
          INSERT INTO search_fts (rowid, title, body, tags, kind) VALUES (last_insert_rowid(), ${withRow(k.title, 'new')}, ${withRow(k.body, 'new')}, ${withRow(k.tags, 'new')}, '${k.kind}');
        END`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER search_${k.table}_update AFTER UPDATE OF ${k.watched.join(', ')} ON ${k.table} BEGIN
          UPDATE search_fts SET title = ${withRow(k.title, 'new')}, body = ${withRow(k.body, 'new')}, tags = ${withRow(k.tags, 'new')} WHERE rowid = ${docOf('new.id')};
        END`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER search_${k.table}_delete AFTER DELETE ON ${k.table} BEGIN
          DELETE FROM search_fts WHERE rowid = ${docOf('old.id')};
          DELETE FROM search_docs WHERE kind = '${k.kind}' AND ref = old.id;
        END`,
      )
      .execute(db);
    if (k.tagTable) {
      const { table, key } = k.tagTable;
      for (const event of ['INSERT', 'DELETE', 'UPDATE'] as const) {
        const ref = event === 'DELETE' ? 'old' : 'new';
        await sql
          .raw(
            `CREATE TRIGGER search_${table}_${event.toLowerCase()} AFTER ${event} ON ${table} BEGIN
              UPDATE search_fts SET tags = ${tagsOf(table, key, `${ref}.${key}`)} WHERE rowid = ${docOf(`${ref}.${key}`)};
            END`,
          )
          .execute(db);
      }
    }
  }

  // Backfill: every existing row, the same columns the triggers write.
  for (const k of SEARCH_KINDS) {
    await sql.raw(`INSERT INTO search_docs (kind, ref, parent, at) SELECT '${k.kind}', r.id, ${k.parent ?? 'NULL'}, r.created_at FROM ${k.table} r`).execute(db);
    await sql
      .raw(
        `INSERT INTO search_fts (rowid, title, body, tags, kind)
         SELECT d.doc_id, ${k.title}, ${k.body}, ${k.tags}, '${k.kind}' FROM search_docs d JOIN ${k.table} r ON r.id = d.ref WHERE d.kind = '${k.kind}'`,
      )
      .execute(db);
  }
}
