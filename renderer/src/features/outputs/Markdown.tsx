import { createElement, type ReactNode } from 'react';

/**
 * A small markdown renderer for outputs: headings, paragraphs, bullet and numbered lists, quotes,
 * fenced code, rules; inline code, links, bold and italic. It builds React elements only (never
 * HTML strings), so any HTML in the text shows as text; links keep http(s), mailto and in-app
 * paths and drop anything else (javascript: and friends) to plain text. No library is installed
 * for this (none is in the project's dependencies), and an output's markdown needs no more.
 */

/** Whether a link target is safe to put in href. */
export function safeHref(url: string): string | null {
  const u = url.trim();
  if (/^(https?:\/\/|mailto:)/i.test(u)) return u;
  if (/^\/(?!\/)/.test(u) || u.startsWith('#')) return u;
  return null;
}

const ESCAPABLE = /[\\`*_[\]()#+\-.!>]/;

/** Inline markdown of one block's text. */
export function renderInline(text: string, key = 'i', allowLinks = true): ReactNode[] {
  const out: ReactNode[] = [];
  let buf = '';
  let n = 0;
  const flush = () => {
    if (buf) out.push(buf);
    buf = '';
  };
  const push = (node: ReactNode) => {
    flush();
    out.push(node);
  };
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    const prev = i > 0 ? text[i - 1] : ' ';
    let m: RegExpExecArray | null;
    if (rest[0] === '\\' && rest.length > 1 && ESCAPABLE.test(rest[1])) {
      buf += rest[1];
      i += 2;
    } else if ((m = /^`([^`]+)`/.exec(rest))) {
      push(<code key={`${key}.${n++}`}>{m[1]}</code>);
      i += m[0].length;
    } else if (allowLinks && (m = /^\[([^\]]+)\]\(([^)\s]+)\)/.exec(rest))) {
      const href = safeHref(m[2]);
      const label = renderInline(m[1], `${key}.${n}`, false);
      const external = href !== null && /^https?:/i.test(href);
      push(
        href === null ? (
          <span key={`${key}.${n++}`}>{label}</span>
        ) : (
          <a key={`${key}.${n++}`} href={href} {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
            {label}
          </a>
        ),
      );
      i += m[0].length;
    } else if ((m = /^(\*\*|__)(?=\S)([\s\S]*?\S)\1/.exec(rest)) && !(m[1] === '__' && /\w/.test(prev))) {
      push(<strong key={`${key}.${n}`}>{renderInline(m[2], `${key}.${n++}`, allowLinks)}</strong>);
      i += m[0].length;
    } else if ((m = /^\*(?=[^\s*])([\s\S]*?[^\s*])\*(?!\*)/.exec(rest)) || ((m = /^_(?=\S)([\s\S]*?\S)_(?!\w)/.exec(rest)) && !/\w/.test(prev))) {
      push(<em key={`${key}.${n}`}>{renderInline(m[1], `${key}.${n++}`, allowLinks)}</em>);
      i += m[0].length;
    } else {
      buf += rest[0];
      i += 1;
    }
  }
  flush();
  return out;
}

type Block =
  | { type: 'heading'; level: number; text: string }
  | { type: 'paragraph'; text: string }
  | { type: 'list'; ordered: boolean; start: number; items: string[] }
  | { type: 'quote'; text: string }
  | { type: 'code'; text: string }
  | { type: 'rule' };

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^\s{0,3}[-*+]\s+(.*)$/;
const NUMBERED = /^\s{0,3}(\d{1,9})[.)]\s+(.*)$/;
const FENCE = /^\s{0,3}(```|~~~)/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;

/** Splits markdown into blocks (one level of lists; an indented line continues the item above). */
export function parseBlocks(markdown: string): Block[] {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  const isBlockStart = (line: string) => HEADING.test(line) || BULLET.test(line) || NUMBERED.test(line) || FENCE.test(line) || RULE.test(line) || QUOTE.test(line);
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      i += 1;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const body: string[] = [];
      i += 1;
      while (i < lines.length && !lines[i].trim().startsWith(fence[1])) body.push(lines[i++]);
      i += 1; // the closing fence (or the end)
      blocks.push({ type: 'code', text: body.join('\n') });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ type: 'heading', level: heading[1].length, text: heading[2] });
      i += 1;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ type: 'rule' });
      i += 1;
      continue;
    }
    if (QUOTE.test(line)) {
      const body: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i])) body.push((QUOTE.exec(lines[i++]) as RegExpExecArray)[1]);
      blocks.push({ type: 'quote', text: body.join(' ') });
      continue;
    }
    const bullet = BULLET.exec(line);
    const numbered = NUMBERED.exec(line);
    if (bullet || numbered) {
      const ordered = !bullet;
      const itemRe = ordered ? NUMBERED : BULLET;
      const items: string[] = [];
      while (i < lines.length) {
        const m = itemRe.exec(lines[i]);
        if (m) {
          items.push(ordered ? m[2] : m[1]);
          i += 1;
        } else if (items.length && /^\s+\S/.test(lines[i]) && !isBlockStart(lines[i])) {
          items[items.length - 1] += ` ${lines[i].trim()}`;
          i += 1;
        } else break;
      }
      blocks.push({ type: 'list', ordered, start: numbered ? Number(numbered[1]) : 1, items });
      continue;
    }
    const body: string[] = [];
    while (i < lines.length && lines[i].trim() && !isBlockStart(lines[i])) body.push(lines[i++].trim());
    blocks.push({ type: 'paragraph', text: body.join(' ') });
  }
  return blocks;
}

/**
 * An output's content rendered as readable markdown. With `title`, a leading heading that only
 * repeats it is left out (the page already shows the title).
 */
export function Markdown({ source, title, className = 'markdown' }: { source: string; title?: string; className?: string }) {
  const blocks = parseBlocks(source);
  const first = blocks[0];
  const shown = first?.type === 'heading' && title !== undefined && first.text.trim() === title.trim() ? blocks.slice(1) : blocks;
  return (
    <div className={className}>
      {shown.map((b, k) => {
        const key = `b${k}`;
        switch (b.type) {
          case 'heading':
            // h1 of the content sits under the page's own h1: shift every level down by one.
            return createElement(`h${Math.min(b.level + 1, 6)}`, { key }, renderInline(b.text, key));
          case 'paragraph':
            return <p key={key}>{renderInline(b.text, key)}</p>;
          case 'quote':
            return <blockquote key={key}>{renderInline(b.text, key)}</blockquote>;
          case 'code':
            return (
              <pre key={key}>
                <code>{b.text}</code>
              </pre>
            );
          case 'rule':
            return <hr key={key} />;
          case 'list': {
            const items = b.items.map((item, j) => <li key={j}>{renderInline(item, `${key}.${j}`)}</li>);
            return b.ordered ? (
              <ol key={key} start={b.start === 1 ? undefined : b.start}>
                {items}
              </ol>
            ) : (
              <ul key={key}>{items}</ul>
            );
          }
        }
      })}
    </div>
  );
}
