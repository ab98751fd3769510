import type { Request, Response } from 'express';
import type { Mount } from '../../app';
import { escapeHtml } from '../../core/html';
import { pricing } from '../../domain/pricing/pricing';
import { baseUrlOf, cachePublicly } from './public-http';
import { renderPublicPage } from './public-page';

/** /pricing: the plans of GET /api/v1/pricing, each at its share anchor `#plan-<slug>`. */
export const pricingPagesMount: Mount = (app, services) => {
  app.get('/pricing', (req: Request, res: Response) => {
    const base = baseUrlOf(req);
    const p = pricing(base, services.clock.now());
    const plans = p.plans
      .map((plan) => {
        const features = plan.features.map((f) => `<li>${escapeHtml(f)}</li>`).join('');
        const caps = [plan.caps.sources, plan.caps.loopInterval, plan.caps.costCap, plan.caps.memoryRetention].map((c) => `<li>${escapeHtml(c)}</li>`).join('');
        return `<li class="card${plan.featured ? ' featured' : ''}" id="plan-${escapeHtml(plan.slug)}"><h2><a href="#plan-${escapeHtml(plan.slug)}">${escapeHtml(plan.name)}</a>${plan.featured ? ' <span class="tag">Recommended</span>' : ''}</h2><p><strong>${escapeHtml(plan.price)}</strong> <span class="meta">${escapeHtml(plan.priceSuffix)}</span></p><p>${escapeHtml(plan.description)}</p><ul>${features}</ul><p class="meta">Caps</p><ul class="meta">${caps}</ul></li>`;
      })
      .join('');
    const rejected = p.competitorComparison.rejectedModels.map((m) => `<tr id="${escapeHtml(m.key)}"><td><strong>${escapeHtml(m.name)}</strong></td><td>${escapeHtml(m.howItWorks)}</td><td>${escapeHtml(m.whyNot)}</td></tr>`).join('');
    const notes = p.summary.positioningNotes.map((n) => `<li>${escapeHtml(n)}</li>`).join('');
    const body = `<ul class="cards">${plans}</ul><h2>${escapeHtml(p.competitorComparison.title)}</h2><table><thead><tr><th>Model</th><th>How it charges</th><th>Why not Desk</th></tr></thead><tbody>${rejected}</tbody></table><ul>${notes}</ul>`;
    cachePublicly(res);
    res
      .status(200)
      .type('html')
      .send(renderPublicPage({ title: 'Pricing', description: `${p.summary.planCount} plans, from $${p.summary.startingPriceUsd} a month, with a hard daily cap on AI spend.`, canonicalUrl: `${base}/pricing`, body, section: 'pricing' }));
  });
};
