import type { NextFunction, Request, Response } from 'express';
import type { Mount } from '../../app';
import { DeskError } from '../../core/errors';
import { escapeHtml } from '../../core/html';
import { ChangelogService, type Release, type TrendAnswer } from '../../domain/changelog/changelog-service';
import { baseUrlOf, cachePublicly } from './public-http';
import { renderNotFoundPage, renderPublicPage } from './public-page';

/** `12` of `rev 12`. */
const numberOf = (release: Release): string => release.rev.replace(/^rev /, '');

function releaseSection(release: Release, headingLink: boolean): string {
  const title = `${escapeHtml(release.rev)} · ${escapeHtml(release.title)}`;
  const heading = headingLink ? `<a href="/changelog/${escapeHtml(numberOf(release))}">${title}</a>` : title;
  const highlights = release.highlights.map((h) => `<li><strong>${escapeHtml(h.label)}</strong>: ${escapeHtml(h.description)}</li>`).join('');
  return `<section class="release"><h2>${heading}</h2><p class="meta"><time datetime="${escapeHtml(release.date)}">${escapeHtml(release.date)}</time></p><ul>${highlights}</ul></section>`;
}

function renderChangelog(releases: Release[], trend: TrendAnswer, baseUrl: string): string {
  const summary = `<p class="meta">Releases over the last four weeks: ${trend.latest} in the latest two, ${trend.prior} in the two before${trend.verb === '—' ? '' : ` (${escapeHtml(trend.verb.toLowerCase())})`}.</p>`;
  return renderPublicPage({
    title: 'Changelog',
    description: `Every release of Desk, newest first: ${releases.length} so far.`,
    canonicalUrl: `${baseUrl}/changelog`,
    section: 'changelog',
    body: `<style>.release h2 a{text-decoration:none}.release h2{margin-bottom:.2rem}</style>${summary}${releases.map((r) => releaseSection(r, true)).join('\n')}`,
  });
}

function renderRelease(release: Release & { neighbors: { newer: Release | null; older: Release | null } }, baseUrl: string): string {
  const link = (r: Release | null, rel: string, label: string) =>
    r === null ? '' : `<a rel="${rel}" href="/changelog/${escapeHtml(numberOf(r))}">${label}: ${escapeHtml(r.rev)} · ${escapeHtml(r.title)}</a>`;
  const nav = [link(release.neighbors.newer, 'next', 'Newer'), link(release.neighbors.older, 'prev', 'Older')].filter((x) => x !== '').join(' · ');
  return renderPublicPage({
    title: `${release.rev}: ${release.title}`,
    description: `What changed in Desk ${release.rev}, released ${release.date}.`,
    canonicalUrl: `${baseUrl}/changelog/${numberOf(release)}`,
    section: 'changelog',
    body: `${releaseSection(release, false)}\n<nav class="meta" aria-label="Other releases"><p>${nav}</p><p><a href="/changelog">All releases</a></p></nav>`,
  });
}

/**
 * The changelog's human pages: /changelog (every release, newest first) and /changelog/<n> (one
 * release with links to its neighbours). An address naming no release is a 404 page. Cached like
 * the changelog API; the 404 page is not.
 */
export const changelogPagesMount: Mount = (app, services) => {
  app.get('/changelog', (req: Request, res: Response) => {
    const changelog = new ChangelogService(services.clock);
    const { releases } = changelog.list({ limit: 100 }, baseUrlOf(req));
    cachePublicly(res);
    res.status(200).type('html').send(renderChangelog(releases, changelog.trend(), baseUrlOf(req)));
  });
  app.get('/changelog/:rev', (req: Request, res: Response, next: NextFunction) => {
    const rev = req.params.rev ?? '';
    const base = baseUrlOf(req);
    if (!/^\d{1,7}$/.test(rev)) {
      res.status(404).type('html').send(renderNotFoundPage(`${base}/changelog`, 'release'));
      return;
    }
    try {
      const release = new ChangelogService(services.clock).detail(rev, base);
      cachePublicly(res);
      res.status(200).type('html').send(renderRelease(release, base));
    } catch (error) {
      if (error instanceof DeskError && error.status === 404) res.status(404).type('html').send(renderNotFoundPage(`${base}/changelog`, 'release'));
      else next(error);
    }
  });
};
