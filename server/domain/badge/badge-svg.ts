import { escapeHtml } from '../../core/html';

/**
 * A flat badge in the shields.io style: a grey label box and a coloured message box, white
 * Verdana 11px text with a shadow. Text widths are estimated per character (Verdana's advance
 * widths rounded), which is what fixes the box sizes; every text is escaped.
 */

const NARROW = new Set(['i', 'l', 'j', '.', ',', ':', ';', '!', '|', "'", ' ', 'I', 'f', 't', 'r', '(', ')', '/']);
const WIDE = new Set(['m', 'w', 'M', 'W', '@', '%']);

export function textWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += NARROW.has(ch) ? 4 : WIDE.has(ch) ? 10 : /[A-Z0-9#&]/.test(ch) ? 7.5 : 6.5;
  return Math.round(width);
}

export function renderBadge(label: string, message: string, color: string): string {
  const lw = textWidth(label) + 10;
  const mw = textWidth(message) + 10;
  const w = lw + mw;
  const l = escapeHtml(label);
  const m = escapeHtml(message);
  const c = escapeHtml(color);
  // Text is drawn at 10x and scaled down, as shields.io does, for crisp positioning.
  const lx = (lw / 2) * 10;
  const mx = (lw + mw / 2) * 10;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" role="img" aria-label="${l}: ${m}"><title>${l}: ${m}</title><linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient><clipPath id="r"><rect width="${w}" height="20" rx="3" fill="#fff"/></clipPath><g clip-path="url(#r)"><rect width="${lw}" height="20" fill="#555"/><rect x="${lw}" width="${mw}" height="20" fill="${c}"/><rect width="${w}" height="20" fill="url(#s)"/></g><g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" text-rendering="geometricPrecision" font-size="110"><text aria-hidden="true" x="${lx}" y="150" fill="#010101" fill-opacity=".3" transform="scale(.1)" textLength="${(lw - 10) * 10}">${l}</text><text x="${lx}" y="140" transform="scale(.1)" fill="#fff" textLength="${(lw - 10) * 10}">${l}</text><text aria-hidden="true" x="${mx}" y="150" fill="#010101" fill-opacity=".3" transform="scale(.1)" textLength="${(mw - 10) * 10}">${m}</text><text x="${mx}" y="140" transform="scale(.1)" fill="#fff" textLength="${(mw - 10) * 10}">${m}</text></g></svg>`;
}
