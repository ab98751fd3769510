import ReactMarkdown, { type Components } from 'react-markdown';

/**
 * An output's markdown, rendered by react-markdown (remark: CommonMark done right, and it builds
 * React elements, never HTML strings). What an output may hold comes from a model, so:
 * - HTML in the text is shown as the text it is (never parsed into elements);
 * - links keep http(s), mailto and in-app targets; anything else (javascript: and friends) is text;
 * - images show their alt text (no request leaves the desk to fetch them);
 * - headings sit under the page's own h1 and never skip a level (WCAG 1.3.1): the text's top
 *   heading is an h2 whatever it was written as, and each goes at most one level deeper than the
 *   one before it.
 */

/** Whether a link target is safe to put in href. */
export function safeHref(url: string): string | null {
  const u = url.trim();
  if (/^(https?:\/\/|mailto:)/i.test(u)) return u;
  if (/^\/(?!\/)/.test(u) || u.startsWith('#')) return u;
  return null;
}

interface Node {
  type: string;
  value?: string;
  depth?: number;
  children?: Node[];
}

/** A remark plugin: raw HTML nodes become text nodes, shown as written. */
function htmlAsText() {
  const walk = (n: Node): void => {
    if (n.type === 'html') n.type = 'text';
    n.children?.forEach(walk);
  };
  return (tree: Node) => walk(tree);
}

/** A remark plugin: heading levels ranked from `top` (h2 by default) down, in order, none deeper than one past the last. */
function headingsUnderPage(options: { top?: number } = {}) {
  const top = options.top ?? 2;
  return (tree: Node) => {
    const headings: Node[] = [];
    const walk = (n: Node): void => {
      if (n.type === 'heading') headings.push(n);
      n.children?.forEach(walk);
    };
    walk(tree);
    const ranks = [...new Set(headings.map((h) => h.depth ?? 1))].sort((a, b) => a - b);
    let previous = top - 1;
    for (const h of headings) {
      const level = Math.min(ranks.indexOf(h.depth ?? 1) + top, previous + 1, 6);
      h.depth = level;
      previous = level;
    }
  };
}

const COMPONENTS: Components = {
  a: ({ href, children }) => {
    if (!href) return <span>{children}</span>;
    return /^(https?:|mailto:)/i.test(href) ? (
      <a href={href} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    ) : (
      <a href={href}>{children}</a>
    );
  },
  img: ({ alt }) => <span>{alt ?? ''}</span>,
};


/** The source without a leading `# heading` that only repeats `title` (the page shows the title). */
function withoutRepeatedTitle(source: string, title: string | undefined): string {
  if (title === undefined) return source;
  const match = /^\s*#\s+(.+?)\s*#*\s*(?:\n|$)/.exec(source);
  return match && match[1].trim() === title.trim() ? source.slice(match[0].length) : source;
}

/**
 * An output's content rendered as readable markdown. With `title`, a leading heading that only
 * repeats it is left out. `topLevel`: the level of the text's top heading (2 under a page's h1, 3
 * under a preview's h2).
 */
export function Markdown({ source, title, className = 'markdown', topLevel = 2 }: { source: string; title?: string; className?: string; topLevel?: number }) {
  return (
    <div className={className}>
      <ReactMarkdown components={COMPONENTS} remarkPlugins={[htmlAsText, [headingsUnderPage, { top: topLevel }]]} urlTransform={(url) => safeHref(url) ?? undefined}>
        {withoutRepeatedTitle(source, title)}
      </ReactMarkdown>
    </div>
  );
}
