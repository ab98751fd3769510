/** Plain text out of the HTML a feed puts in descriptions and titles: tags dropped, entities decoded. */

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  copy: '©',
  reg: '®',
  trade: '™',
  euro: '€',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

const LOOKS_LIKE_HTML = /<[a-z!/][^>]*>|&(#x[0-9a-f]+|#\d+|[a-z]+);/i;

/** Text of an HTML fragment; text without markup is only trimmed and whitespace-collapsed. */
export function htmlToText(html: string): string {
  let text = html;
  if (LOOKS_LIKE_HTML.test(text)) {
    text = text
      .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
      .replace(/<!--[\s\S]*?-->/g, ' ')
      .replace(/<br\s*\/?>/gi, '\n')
      .replace(/<\/(p|div|li|h[1-6]|blockquote|tr)\s*>/gi, '\n')
      // inline tags vanish without a trace ("<b>Acme</b>!" is "Acme!"), others separate words
      .replace(/<\/?(a|b|strong|em|i|u|span|code|small|sup|sub|mark|abbr|s)\b[^>]*>/gi, '')
      .replace(/<[^>]*>/g, ' ');
    text = decodeEntities(text);
  }
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t\r\f\v\u00a0]+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

/** Cuts text to at most max characters, marking the cut with an ellipsis. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}
