import { sql, type RawBuilder } from 'kysely';
import { MAX_QUERY_WORDS } from './rules';

/**
 * The user's text as an FTS5 query, and FTS5's marked text back as plain text with offsets.
 * Nothing the user types reaches FTS5's query syntax: the text is cut into words the way the index's
 * tokenizer (unicode61) cuts it (letters, digits and private-use characters; everything else
 * separates), each word is quoted, and the words are AND-ed, the last one as a prefix (the word
 * being typed). So `"`, `-`, `OR`, `NEAR`, `*`, `(`, `:` or `^` are words or separators, never
 * operators, and no input can make a syntax error.
 */

/** The words of a query, lowercased, in order, each once; at most MAX_QUERY_WORDS. */
export function queryWords(text: string): string[] {
  const words: string[] = [];
  for (const raw of text.toLowerCase().split(/[^\p{L}\p{N}\p{Co}]+/u)) {
    if (raw === '' || words.includes(raw)) continue;
    words.push(raw);
    if (words.length >= MAX_QUERY_WORDS) break;
  }
  return words;
}

/** The index's text columns, as FTS5 column filters: every one (a match anywhere), or fewer (a match there). */
export type TextColumns = '{title body tags}' | '{title tags}' | '{title}';

/**
 * The MATCH expression for the words: every word in the text columns (title, body, tags, or those
 * `columns` name; never the `kind` column), the last as a prefix (unless told), optionally only rows
 * of `kinds`; null when there is no word.
 */
export function matchExpression(words: readonly string[], kinds?: readonly string[], lastAsPrefix = true, columns: TextColumns = '{title body tags}'): string | null {
  if (words.length === 0) return null;
  // Words hold no `"` (a separator), so quoting needs no escaping; kinds come from a fixed list.
  const text = `${columns} : (${words.map((w, i) => (i === words.length - 1 && lastAsPrefix ? `"${w}"*` : `"${w}"`)).join(' ')})`;
  return kinds === undefined ? text : `${kindFilter(kinds)} AND ${text}`;
}

/** The MATCH expression of rows of `kinds`. */
export const kindFilter = (kinds: readonly string[]): string => `{kind} : (${kinds.map((k) => `"${k}"`).join(' OR ')})`;

/** Text without accents (the index's remove_diacritics), for matching outside the index. */
export const foldAccents = (text: string): string => text.normalize('NFD').replace(/\p{M}+/gu, '');

/** The index's rule applied to a short text's words: every query word is one of them, the last one as a prefix. */
export function wordsMatch(query: readonly string[], words: readonly string[]): boolean {
  if (query.length === 0) return false;
  return query.every((q, i) => words.some((w) => (i === query.length - 1 ? w.startsWith(q) : w === q)));
}

/**
 * A subquery of the ids of `kind` rows whose indexed text matches the words (optionally those of
 * one parent: a task's comments), for `WHERE id IN (...)`; null when there are no words.
 */
export function matchingRefs(kind: string, words: readonly string[], parent?: string): RawBuilder<string> | null {
  const match = matchExpression(words, [kind]);
  if (match === null) return null;
  const byParent = parent === undefined ? sql`` : sql` AND d.parent = ${parent}`;
  return sql<string>`(SELECT d.ref FROM search_fts JOIN search_docs d ON d.doc_id = search_fts.rowid WHERE search_fts MATCH ${match}${byParent})`;
}

/** Where matches start and end in a text (UTF-16 offsets, end exclusive), for the UI to mark. */
export interface TextMark {
  /** @isInt */
  start: number;
  /** @isInt */
  end: number;
}

/** Markers FTS5's snippet()/highlight() put around matches (control characters: no text needs them). */
export const MARK_OPEN = '\u0001';
export const MARK_CLOSE = '\u0002';

/** FTS5 marked text as plain text and the offsets of its marks; stray markers in the content are dropped. */
export function unmark(marked: string): { text: string; marks: TextMark[] } {
  let text = '';
  const marks: TextMark[] = [];
  let open: number | null = null;
  for (const ch of marked) {
    if (ch === MARK_OPEN) open = text.length;
    else if (ch === MARK_CLOSE) {
      if (open !== null && text.length > open) marks.push({ start: open, end: text.length });
      open = null;
    } else text += ch;
  }
  return { text, marks };
}
