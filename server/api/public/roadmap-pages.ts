import type { NextFunction, Request, Response } from 'express';
import type { Mount } from '../../app';
import { escapeHtml } from '../../core/html';
import { ROADMAP_VOTES_CACHE_CONTROL } from '../../domain/roadmap/rules';
import { baseUrlOf } from './public-http';
import { renderPublicPage } from './public-page';

const STATUS_LABEL = { in_progress: 'In progress', planned: 'Planned', exploring: 'Exploring' } as const;

/**
 * /roadmap: the phases and their items with today's vote counts. Counts change as members vote, so
 * the page is sent with the votes' own Cache-Control (no-cache), not the public content value.
 */
export const roadmapPagesMount: Mount = (app, services) => {
  app.get('/roadmap', (req: Request, res: Response, next: NextFunction) => {
    services.roadmap.votes().then((votes) => {
      const counts = new Map(votes.items.map((i) => [i.key, i]));
      const phases = services.roadmap
        .items()
        .phases.map((phase) => {
          const cards = phase.items
            .map((item) => {
              const v = counts.get(item.key);
              const figures = v ? `${v.votes} vote${v.votes === 1 ? '' : 's'} · ${v.momentum7d} this week` : '0 votes';
              return `<li class="card" id="item-${escapeHtml(item.key)}"><h3>${escapeHtml(item.title)}</h3><p>${escapeHtml(item.description)}</p><p class="meta"><span class="tag">${STATUS_LABEL[item.status]}</span> ${escapeHtml(figures)}</p></li>`;
            })
            .join('');
          return `<section id="phase-${phase.key}"><h2>${escapeHtml(phase.name)}</h2><p class="meta">${escapeHtml(phase.description)}</p><ul class="cards">${cards}</ul></section>`;
        })
        .join('');
      const top = votes.mostRequested.length === 0 ? '' : `<p class="meta">Most requested: ${votes.mostRequested.map((r) => `<a href="#item-${escapeHtml(r.key)}">${escapeHtml(r.title)}</a> (${r.votes})`).join(', ')}</p>`;
      const body = `${top}${phases}<p class="meta">Members of a desk vote from its Roadmap page; counts are also at <a href="/api/v1/roadmap-votes">/api/v1/roadmap-votes</a>.</p>`;
      res.setHeader('Cache-Control', ROADMAP_VOTES_CACHE_CONTROL);
      res
        .status(200)
        .type('html')
        .send(renderPublicPage({ title: 'Roadmap', description: 'Where Desk goes next: what we are building now, what comes next, and what we are exploring.', canonicalUrl: `${baseUrlOf(req)}/roadmap`, body, section: 'roadmap' }));
    }, next);
  });
};
