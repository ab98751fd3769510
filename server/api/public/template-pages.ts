import type { Request, Response } from 'express';
import type { Mount } from '../../app';
import { escapeHtml } from '../../core/html';
import { categoryUrl, findTemplate, templatesOf, templateUrl } from '../../domain/onboarding/catalog';
import { categoryOf, ONBOARDING_TEMPLATES, TEMPLATE_CATEGORIES, type OnboardingTemplate, type TemplateCategory } from '../../domain/onboarding/content';
import { RELATED_TEMPLATES_MAX } from '../../domain/onboarding/rules';
import { releaseDate } from '../../domain/onboarding/releases';
import { baseUrlOf, cachePublicly } from './public-http';
import { renderNotFoundPage, renderPublicPage } from './public-page';

/**
 * The human pages of the onboarding templates: /templates (all, by category), /templates/<key>
 * (its memories and sample signals, related templates, and the way into the app's onboarding
 * flow) and /templates/category/<category>. Unknown keys and categories get the 404 page. Pages
 * are cached like the API (the catalog changes only with a release), 404s included.
 */

/** Where the app's onboarding flow opens a template (a client route of the desk's UI). */
export const onboardingAppPath = (key: string) => `/onboarding?template=${encodeURIComponent(key)}`;

const e = escapeHtml;
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A template's card; `level` is its heading's, one below the heading it sits under (no level skipped). */
function card(t: OnboardingTemplate, level: 2 | 3 = 3): string {
  return `<li class="card"><h${level}><a href="/templates/${e(t.key)}">${e(t.name)}</a></h${level}><p>${e(t.description)}</p>
<p class="meta">${plural(t.memories.length, 'memory', 'memories')} · ${plural(t.signals.length, 'sample signal', 'sample signals')} · since ${e(t.launchRev)}</p></li>`;
}

function categorySection(c: TemplateCategory): string {
  const members = templatesOf(c.key);
  return `<section id="${e(c.key)}"><h2><a href="/templates/category/${e(c.key)}">${e(c.label)}</a></h2><p class="meta">${e(c.description)}</p>
<ul class="cards">${members.map((t) => card(t)).join('')}</ul></section>`;
}

function indexPage(base: string): string {
  const toc = TEMPLATE_CATEGORIES.map((c) => `<a class="tag" href="#${e(c.key)}">${e(c.label)} (${templatesOf(c.key).length})</a>`).join('');
  return renderPublicPage({
    title: 'Onboarding templates',
    description: `${ONBOARDING_TEMPLATES.length} ready-made starting points: the memories and sample signals a desk for your kind of business should know from day one.`,
    canonicalUrl: `${base}/templates`,
    section: 'templates',
    body: `<nav aria-label="Categories">${toc}</nav>${TEMPLATE_CATEGORIES.map(categorySection).join('')}`,
  });
}

function templatePage(base: string, t: OnboardingTemplate): string {
  const c = categoryOf(t.category);
  const memories = t.memories
    .map((m) => `<li><strong>${e(m.title)}</strong> <span class="tag">${e(m.kind)}</span> <span class="meta">importance ${m.importance}</span><br>${e(m.content)}</li>`)
    .join('');
  const signals = t.signals
    .map((s) => `<tr><td>${e(s.title)}<br><span class="meta">${e(s.detail)}</span></td><td>${e(s.kind)}</td><td>${e(s.priority)}</td></tr>`)
    .join('');
  const related = templatesOf(t.category).filter((o) => o.key !== t.key).slice(0, RELATED_TEMPLATES_MAX);
  const hint = t.keywordHint === null ? '' : `<p><em>${e(t.keywordHint)}</em></p>`;
  return renderPublicPage({
    title: t.name,
    description: t.description,
    canonicalUrl: templateUrl(base, t.key),
    section: 'templates',
    body: `<article>${hint}<p class="meta">Category: <a href="/templates/category/${e(t.category)}">${e(c?.label ?? t.category)}</a> · launched in ${e(t.launchRev)} (${e(releaseDate(t.launchRev))})</p>
<p><a class="tag" href="${e(onboardingAppPath(t.key))}">Use this template in Desk</a></p>
<h2>What the desk will know (${t.memories.length} memories)</h2><ul>${memories}</ul>
<h2>The signals it is ready for (${t.signals.length} samples)</h2><table><thead><tr><th>Signal</th><th>Kind</th><th>Priority</th></tr></thead><tbody>${signals}</tbody></table></article>
${related.length === 0 ? '' : `<h2>Related templates</h2><ul class="cards">${related.map((r) => card(r)).join('')}</ul>`}`,
  });
}

function categoryPage(base: string, c: TemplateCategory): string {
  return renderPublicPage({
    title: `${c.label} templates`,
    description: c.description,
    canonicalUrl: categoryUrl(base, c.key),
    section: 'templates',
    body: `<ul class="cards">${templatesOf(c.key).map((t) => card(t, 2)).join('')}</ul><p><a href="/templates">All templates</a></p>`,
  });
}

function send(res: Response, status: number, html: string) {
  cachePublicly(res);
  res.status(status).type('html').send(html);
}

export const templatePagesMount: Mount = (app) => {
  app.get('/templates', (req: Request, res: Response) => send(res, 200, indexPage(baseUrlOf(req))));
  app.get('/templates/category/:category', (req: Request, res: Response) => {
    const base = baseUrlOf(req);
    const c = categoryOf(req.params.category ?? '');
    if (c === undefined) send(res, 404, renderNotFoundPage(`${base}${req.path}`, 'template category'));
    else send(res, 200, categoryPage(base, c));
  });
  app.get('/templates/:key', (req: Request, res: Response) => {
    const base = baseUrlOf(req);
    const t = findTemplate(req.params.key ?? '');
    if (t === undefined) send(res, 404, renderNotFoundPage(`${base}${req.path}`, 'template'));
    else send(res, 200, templatePage(base, t));
  });
};
