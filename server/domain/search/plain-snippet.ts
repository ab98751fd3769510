/**
 * A snippet as plain words: outputs, memory, comments and task summaries are Markdown, and a snippet
 * cut from them showed its syntax (`**Price**`, `## Next steps`, `[docs](https://…)`) in the search
 * dropdown, which renders text, never Markdown. The syntax is taken out of the snippet as FTS5 marked
 * it (the match markers are control characters the patterns step over), before the marks become
 * offsets, so the offsets stay right. A snippet is a fragment, so only what reads as syntax goes:
 * paired `*`/`_` at word edges, not the `_` inside snake_case or a lone `*` in `2 * 3`.
 */

/** A match marker (fts.ts MARK_OPEN / MARK_CLOSE) that may sit between syntax and the word. */
const M = '[\\u0001\\u0002]*';

const RULES: readonly [RegExp, string][] = [
  // Images and links keep their words: ![alt](url) and [text](url); a url cut by the snippet too.
  [new RegExp(`!?\\[(${M}[^\\]\\n]*?)\\]\\([^)\\s]*\\)?`, 'g'), '$1'],
  // Strong and strike: the pairs never stand for anything else in prose.
  [/\*\*|__|~~/g, ''],
  // Line starts: headings, quotes, list bullets and numbers, rules.
  [new RegExp(`(^|\\n)[ \\t]*(?:#{1,6}[ \\t]+|>[ \\t]?|[-*+][ \\t]+|\\d{1,3}[.)][ \\t]+)`, 'g'), '$1'],
  [/(^|\n)[ \t]*(?:[-*_][ \t]*){3,}(?=\n|$)/g, '$1'],
  // Emphasis and code: a `*`, `_` or backtick opening a word, or closing one.
  [new RegExp(`(^|[\\s(\\["'])[*_\`]+(?=${M}[^\\s*_\`])`, 'g'), '$1'],
  [new RegExp(`([^\\s*_\`]${M})[*_\`]+(?=$|[\\s)\\].,;:!?"'…])`, 'g'), '$1'],
  // Inline: the words run on one line in the dropdown.
  [/\s*\n\s*/g, ' '],
];

export function plainSnippet(marked: string): string {
  let text = marked;
  for (const [pattern, replacement] of RULES) text = text.replace(pattern, replacement);
  return text;
}
