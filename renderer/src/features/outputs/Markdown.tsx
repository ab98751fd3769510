import { createElement, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';

/**
 * An output's markdown, rendered by react-markdown (remark: CommonMark done right, and it builds
 * React elements, never HTML strings). What an output may hold comes from a model, so:
 * - HTML in the text is shown as the text it is (never parsed into elements);
 * - links keep http(s), mailto and in-app targets; anything else (javascript: and friends) is text;
 * - images show their alt text (no request leaves the desk to fetch them);
 * - headings sit one level under the page's own h1.
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

const heading =
  (level: number) =>
  ({ children }: { children?: ReactNode }) =>
    createElement(`h${Math.min(level + 1, 6)}`, null, children);

const COMPONENTS: Components = {
  h1: heading(1),
  h2: heading(2),
  h3: heading(3),
  h4: heading(4),
  h5: heading(5),
  h6: heading(6),
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

const PLUGINS = [htmlAsText];

/** The source without a leading `# heading` that only repeats `title` (the page shows the title). */
function withoutRepeatedTitle(source: string, title: string | undefined): string {
  if (title === undefined) return source;
  const match = /^\s*#\s+(.+?)\s*#*\s*(?:\n|$)/.exec(source);
  return match && match[1].trim() === title.trim() ? source.slice(match[0].length) : source;
}

/**
 * An output's content rendered as readable markdown. With `title`, a leading heading that only
 * repeats it is left out.
 */
export function Markdown({ source, title, className = 'markdown' }: { source: string; title?: string; className?: string }) {
  return (
    <div className={className}>
      <ReactMarkdown components={COMPONENTS} remarkPlugins={PLUGINS} urlTransform={(url) => safeHref(url) ?? undefined}>
        {withoutRepeatedTitle(source, title)}
      </ReactMarkdown>
    </div>
  );
}
