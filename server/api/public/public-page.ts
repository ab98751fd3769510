import { escapeHtml, ICON_LINK } from '../../core/html';

/**
 * The human pages behind the public rows' `url` fields (a template, a category, a blog post, the
 * pricing plans...): server-rendered HTML with no script, so they open without the desk's token
 * and without the app bundle. Every area renders its body with `escapeHtml` and wraps it here, so
 * the pages share one look, one navigation and one set of head tags.
 */

export interface PublicPage {
  /** The page's own title; the site name is appended. */
  title: string;
  /** One sentence for the description meta tag and the lede under the heading. */
  description?: string;
  /** Absolute canonical address of the page. */
  canonicalUrl: string;
  /** Trusted HTML (already escaped by the caller). */
  body: string;
  /** Which top-level section is highlighted in the navigation. */
  section?: PublicSection;
}

export type PublicSection = 'templates' | 'changelog' | 'blog' | 'roadmap' | 'integrations' | 'pricing';

const NAV: [PublicSection, string, string][] = [
  ['templates', 'Templates', '/templates'],
  ['changelog', 'Changelog', '/changelog'],
  ['blog', 'Blog', '/blog'],
  ['roadmap', 'Roadmap', '/roadmap'],
  ['integrations', 'Integrations', '/integrations'],
  ['pricing', 'Pricing', '/pricing'],
];

const STYLE = `:root{color-scheme:light dark;--fg:#1d1d1f;--muted:#5f6368;--line:#e3e3e8;--accent:#3451b2;--card:#fafafc}
@media (prefers-color-scheme:dark){:root{--fg:#e8e8ed;--muted:#a1a1aa;--line:#34343a;--accent:#8ea2ff;--card:#1c1c20}body{background:#121214}}
*{box-sizing:border-box}body{font:16px/1.55 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);margin:0}
.wrap{max-width:60rem;margin:0 auto;padding:0 1.25rem}a{color:var(--accent)}
.site{border-bottom:1px solid var(--line);padding:.75rem 0}.site .wrap{display:flex;gap:1.25rem;align-items:center;flex-wrap:wrap}
.site strong a{color:var(--fg);text-decoration:none}.site nav a{color:var(--muted);text-decoration:none;margin-right:1rem}
.site nav a[aria-current=page]{color:var(--fg);font-weight:600}
main{padding:1.5rem 0 3rem}h1{font-size:1.9rem;line-height:1.2;margin:.5rem 0}.lede{color:var(--muted);font-size:1.1rem;margin-top:0}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(16rem,1fr));gap:1rem;padding:0;list-style:none}
.card{border:1px solid var(--line);border-radius:.6rem;padding:1rem;background:var(--card)}.card :is(h2,h3){margin:.1rem 0 .4rem;font-size:1.05rem}
.meta{color:var(--muted);font-size:.875rem}.tag{display:inline-block;border:1px solid var(--line);border-radius:1rem;padding:0 .5rem;margin:0 .25rem .25rem 0;font-size:.8rem}
article{max-width:44rem}footer.site-foot{border-top:1px solid var(--line);color:var(--muted);font-size:.85rem;padding:1rem 0}
table{border-collapse:collapse}td,th{border-bottom:1px solid var(--line);padding:.4rem .6rem;text-align:left;vertical-align:top}`;

export function renderPublicPage(page: PublicPage): string {
  const nav = NAV.map(([key, label, href]) => `<a href="${href}"${key === page.section ? ' aria-current="page"' : ''}>${label}</a>`).join('');
  const description = page.description === undefined ? '' : `<meta name="description" content="${escapeHtml(page.description)}">`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(page.title)} · Desk</title>${description}<link rel="canonical" href="${escapeHtml(page.canonicalUrl)}">${ICON_LINK}<style>${STYLE}</style></head>
<body><header class="site"><div class="wrap"><strong><a href="/templates">Desk</a></strong><nav aria-label="Desk public pages">${nav}</nav></div></header>
<main class="wrap"><h1>${escapeHtml(page.title)}</h1>${page.description === undefined ? '' : `<p class="lede">${escapeHtml(page.description)}</p>`}
${page.body}</main>
<footer class="site-foot"><div class="wrap">Desk, the local-first AI operations desk.</div></footer></body></html>`;
}

/** The page for an address that names nothing (an unknown template key, blog slug...). */
export function renderNotFoundPage(canonicalUrl: string, what: string): string {
  return renderPublicPage({ title: 'Not found', description: `There is no ${what} at this address.`, canonicalUrl, body: '<p><a href="/templates">Back to the templates</a></p>' });
}
