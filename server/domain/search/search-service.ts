import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../../db/connection';
import { kindFilter, MARK_CLOSE, MARK_OPEN, matchExpression, queryWords, unmark, type TextColumns, type TextMark } from './fts';
import { plainSnippet } from './plain-snippet';
import { catchUp, indexInBulk } from './search-index';
import { MIN_PREFIX_LENGTH, RANK_WINDOW, SNIPPET_TOKENS, checkSearchLimit, checkSearchQuery, parseSearchKinds, type SearchKind } from './rules';

export interface SearchQuery {
  q?: string;
  limit?: number;
  /** Comma list of SearchKinds. */
  kind?: string;
}

/** One row found by GET /search. */
export interface SearchHit {
  kind: SearchKind;
  /** The row's id (a comment's own id; its task is `taskId`). */
  id: string;
  /** Its title as plain text: a comment's is "Comment on <task title>", an activity row's its detail. */
  title: string;
  /** Where the title matched. */
  titleMarks: TextMark[];
  /** A few words around the best match in the row's text (body or summary), plain text (Markdown syntax taken out, on one line), `…` where cut. */
  snippet: string;
  /** Where the snippet matched, for the UI to mark (offsets into `snippet`). */
  snippetMarks: TextMark[];
  /**
   * When it happened (the row's creation).
   * @format date-time
   */
  at: string;
  /**
   * Where it opens in the desk's UI: /signals?signal=<id>, /tasks/<id>, /outputs/<id>,
   * /memory/<id>, /tasks/<taskId>?comment=<id>, /activity?q=<query>, /sources/<id>.
   */
  route: string;
  /** The task a comment belongs to; null for other kinds. */
  taskId: string | null;
}

export interface SearchResult {
  /** The query as searched (trimmed). */
  query: string;
  /** The words matched (every one must match; the last, from 4 letters on, also as a prefix). Empty when q holds no word. */
  words: string[];
  /**
   * Best first, at most `limit`: ranked by bm25 (a title match above a tag match above a body
   * match, then how often and in how short a text); when a word of the query, or the kinds filtered
   * on, are found in more than 2000 rows, by where they match (every word in the title, then in title
   * and tags, then anywhere), newest first.
   */
  hits: SearchHit[];
  /**
   * True when more than 2000 rows matched: the hits are the best of the 2000 newest matches
   * (refine `q` or filter by `kind` to reach older ones).
   */
  capped: boolean;
}

/** bm25 weights of the index's columns: title, body, tags, kind (never searched by words). */
const RANK = 'bm25(10.0, 1.0, 4.0, 0.0)';
/** The rowid of the RANK_WINDOW-th newest match, read off the doclists from their newest end (no row when fewer match). */
const windowStartOf = (match: string) => sql<{ r: number }>`SELECT rowid AS r FROM search_fts WHERE search_fts MATCH ${match} ORDER BY rowid DESC LIMIT 1 OFFSET ${RANK_WINDOW - 1}`;
/** Where a match is ranked when bm25 is not used: every word in the title, then in title or tags, then anywhere. */
const TIERS: readonly TextColumns[] = ['{title}', '{title tags}', '{title body tags}'];
const ACTIVITY_TITLE_CHARS = 140;

function routeOf(kind: SearchKind, id: string, parent: string | null, query: string): string {
  switch (kind) {
    case 'signal':
      return `/signals?signal=${encodeURIComponent(id)}`;
    case 'task':
      return `/tasks/${encodeURIComponent(id)}`;
    case 'artifact':
      return `/outputs/${encodeURIComponent(id)}`;
    case 'memory':
      return `/memory/${encodeURIComponent(id)}`;
    case 'comment':
      return `/tasks/${encodeURIComponent(parent ?? '')}?comment=${encodeURIComponent(id)}`;
    case 'activity':
      return `/activity?q=${encodeURIComponent(query)}`;
    case 'source':
      return `/sources/${encodeURIComponent(id)}`;
  }
}

interface HitRow {
  docId: number;
  kind: SearchKind;
  ref: string;
  parent: string | null;
  at: string;
  title: string;
  snippet: string;
  activityDetail: string | null;
  taskTitle: string | null;
}

/** GET /search: keyword search over everything the index holds (db/migrations/0014_search.ts). */
export class SearchService {
  /**
   * Indexes the search queue in bulk on this connection (search-index.ts); `onIndexError` hears a
   * failed run (the rows stay queued for the next reader or the `search.index` job).
   */
  constructor(
    private readonly db: Db,
    options: { onIndexError?: (err: unknown) => void } = {},
  ) {
    indexInBulk(db, options.onIndexError ?? (() => {}));
  }

  /** Indexes the queued rows (the `search.index` job; every reader of the index first); returns how many. */
  async indexQueued(): Promise<number> {
    return catchUp(this.db);
  }

  async search(query: SearchQuery): Promise<SearchResult> {
    const q = checkSearchQuery(query.q);
    const limit = checkSearchLimit(query.limit);
    const kinds = parseSearchKinds(query.kind);
    const words = queryWords(q);
    if (words.length === 0) return { query: q, words, hits: [], capped: false };
    // Queued rows are indexed first, so the answer is the one a fully indexed desk gives.
    await this.indexQueued();
    // A short last word is a whole word; a last word that already fills the window as a whole word
    // is matched as that word: as a prefix FTS5 would merge the postings of every word it starts
    // (hundreds of ms for a word found in most rows), for hits the whole word already fills.
    const last = words[words.length - 1];
    const short = [...last].length < MIN_PREFIX_LENGTH;
    let from = short ? undefined : await this.windowStart(matchExpression(words, kinds, false) as string);
    const prefix = !short && from === undefined;
    const match = matchExpression(words, kinds, prefix) as string;
    if (from === undefined) from = await this.windowStart(match);
    // CAST: the driver binds a JS number as a REAL, and FTS5 then reads every match (10x slower).
    const window = from === undefined ? sql`` : sql` AND search_fts.rowid >= CAST(${from} AS INTEGER)`;
    const hits = sql`
      SELECT d.kind, d.ref, d.parent, d.at, search_fts.rowid AS docId,
        highlight(search_fts, 0, ${MARK_OPEN}, ${MARK_CLOSE}) AS title,
        snippet(search_fts, 1, ${MARK_OPEN}, ${MARK_CLOSE}, '…', ${SNIPPET_TOKENS}) AS snippet,
        CASE WHEN d.kind = 'activity' THEN search_fts.body END AS activityDetail,
        t.title AS taskTitle
      FROM search_fts
      JOIN search_docs d ON d.doc_id = search_fts.rowid
      LEFT JOIN tasks t ON t.id = d.parent
      WHERE search_fts MATCH ${match}`;
    let rows: HitRow[];
    if (from === undefined && !(await this.anyCommon(words, kinds, prefix))) {
      // ORDER BY rank is sorted inside FTS5, so rows leave it best first and snippets are made for
      // the returned rows only (a sort outside it would make one per match).
      rows = (await sql<HitRow>`${hits} AND search_fts.rank MATCH ${RANK} ORDER BY search_fts.rank LIMIT ${limit}`.execute(this.db)).rows;
    } else {
      const ids = await this.byTier(words, kinds, prefix, window, limit);
      if (ids.length === 0) return { query: q, words, hits: [], capped: false };
      // The matches between the first and last hit, kept if hits (`+`: a filter, not the rowid lookup
      // FTS5 would make once per id, each costing a new read of every word's doclists).
      const [low, high] = [Math.min(...ids), Math.max(...ids)];
      const found = (await sql<HitRow>`${hits} AND search_fts.rowid >= CAST(${low} AS INTEGER) AND search_fts.rowid <= CAST(${high} AS INTEGER) AND +search_fts.rowid IN (${sql.join(ids)})`.execute(this.db)).rows;
      const order = new Map(ids.map((id, i) => [id, i]));
      rows = found.sort((a, b) => (order.get(a.docId) ?? 0) - (order.get(b.docId) ?? 0));
    }
    return { query: q, words, hits: rows.map((r) => this.toHit(r, q)), capped: from !== undefined };
  }

  /**
   * Whether one of the query's words, or its kinds, is found in RANK_WINDOW rows or more. bm25
   * weighs a word by how many rows hold it, and FTS5 counts them all, whatever the window: a cost
   * that grows with the desk. Such a query is ranked by tier.
   */
  private async anyCommon(words: readonly string[], kinds: readonly string[] | undefined, prefix: boolean): Promise<boolean> {
    const parts = words.map((w, i) => matchExpression([w], undefined, prefix && i === words.length - 1) as string);
    if (kinds !== undefined) parts.push(kindFilter(kinds));
    const probes = parts.map((p) => sql`SELECT 1 FROM (${windowStartOf(p)})`);
    const { rows } = await sql`SELECT 1 FROM (${sql.join(probes, sql` UNION ALL `)}) LIMIT 1`.execute(this.db);
    return rows.length > 0;
  }

  /**
   * The doc ids of the best `limit` matches by tier (TIERS: where every word matches), newest first
   * in each, from the window: each tier one read of the doclists from the newest end, no ranking.
   */
  private async byTier(words: readonly string[], kinds: readonly string[] | undefined, prefix: boolean, window: RawBuilder<unknown>, limit: number): Promise<number[]> {
    const ids: number[] = [];
    for (const columns of TIERS) {
      // A tier holds the one before it: `limit` rows of it hold at least limit - ids.length new ones.
      const { rows } = await sql<{ r: number }>`
        SELECT rowid AS r FROM search_fts WHERE search_fts MATCH ${matchExpression(words, kinds, prefix, columns)}${window} ORDER BY rowid DESC LIMIT ${limit}`.execute(this.db);
      for (const { r } of rows) if (ids.length < limit && !ids.includes(r)) ids.push(r);
      if (ids.length >= limit) break;
    }
    return ids;
  }

  /**
   * The rowid of the RANK_WINDOW-th newest match (rowids grow with inserts), read off the
   * doclists without ranking; undefined when fewer match. Only rows from it on are ranked.
   */
  private async windowStart(match: string): Promise<number | undefined> {
    const { rows } = await windowStartOf(match).execute(this.db);
    return rows[0]?.r;
  }

  private toHit(r: HitRow, query: string): SearchHit {
    const title = unmark(r.title);
    const snippet = unmark(plainSnippet(r.snippet));
    let shown = title;
    if (r.kind === 'comment') shown = { text: `Comment on ${r.taskTitle ?? 'a deleted task'}`, marks: [] };
    if (r.kind === 'activity') {
      const detail = r.activityDetail ?? '';
      shown = { text: detail.length > ACTIVITY_TITLE_CHARS ? `${detail.slice(0, ACTIVITY_TITLE_CHARS - 1)}…` : detail, marks: [] };
    }
    return {
      kind: r.kind,
      id: r.ref,
      title: shown.text,
      titleMarks: shown.marks,
      snippet: snippet.text,
      snippetMarks: snippet.marks,
      at: r.at,
      route: routeOf(r.kind, r.ref, r.parent, query),
      taskId: r.kind === 'comment' ? r.parent : null,
    };
  }
}
