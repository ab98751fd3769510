import type { Request, Response } from 'express';
import type { Mount } from '../../app';
import { escapeHtml } from '../../core/html';
import { integrationCatalog } from '../../domain/integrations-catalog/catalog';
import { baseUrlOf, cachePublicly } from './public-http';
import { renderPublicPage } from './public-page';

/** /integrations: the catalog of GET /api/v1/integrations as a page, one section per axis. */
export const integrationsPagesMount: Mount = (app, services) => {
  app.get('/integrations', (req: Request, res: Response) => {
    const catalog = integrationCatalog(services.clock.now());
    const body = catalog.groups
      .map((group) => {
        const rows = group.items
          .map((item) => `<tr id="${escapeHtml(item.key)}"><td><strong>${escapeHtml(item.name)}</strong><br><span class="meta">${escapeHtml(item.detail)}</span></td><td>${escapeHtml(item.auth)}</td><td>${escapeHtml(item.sinceRev)}</td></tr>`)
          .join('');
        return `<section id="${group.axis.toLowerCase()}"><h2>${escapeHtml(group.axis)} (${group.count})</h2><p class="meta">${escapeHtml(group.intro)}</p><table><thead><tr><th>Integration</th><th>Authentication</th><th>Since</th></tr></thead><tbody>${rows}</tbody></table></section>`;
      })
      .join('');
    cachePublicly(res);
    res
      .status(200)
      .type('html')
      .send(renderPublicPage({ title: 'Integrations', description: `${catalog.total} ways Desk connects to the services and scripts around it.`, canonicalUrl: `${baseUrlOf(req)}/integrations`, body, section: 'integrations' }));
  });
};
