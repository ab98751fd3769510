import { describe, expect, it } from 'vitest';
import { PLAN_DEFAULT_DAILY_COST_CAP_CENTS, PLAN_LOOP_FLOOR_MINUTES } from '../../domain/workspace/rules';
import { startTestDesk } from '../../testing/desk';
import { useTestDesk } from '../../testing/use-test-desk';
import { PUBLIC_CACHE_CONTROL } from '../public/public-http';

const shared = useTestDesk();

describe('GET /api/v1/pricing (public)', () => {
  it('free, pro and team with the documented prices, caps and share URLs, cacheable', async () => {
    const d = shared.desk;
    const res = await d.api('GET', '/api/v1/pricing', undefined, null);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe(PUBLIC_CACHE_CONTROL);
    const { plans } = res.body;
    expect(plans.map((p: { slug: string }) => p.slug)).toEqual(['free', 'pro', 'team']);
    expect(plans.map((p: { priceUsd: number }) => p.priceUsd)).toEqual([0, 29, 79]);
    expect(plans.map((p: { price: string }) => p.price)).toEqual(['$0', '$29', '$79']);
    expect(plans.map((p: { featured: boolean }) => p.featured)).toEqual([false, true, false]);
    expect(plans.map((p: { defaultDailyCostCapUsd: number }) => p.defaultDailyCostCapUsd)).toEqual([50, 500, 2000]);
    expect(plans.map((p: { defaultDailyCostCapUsdCents: number }) => p.defaultDailyCostCapUsdCents)).toEqual([50, 500, 2000]);
    expect(plans.map((p: { url: string }) => p.url)).toEqual(['free', 'pro', 'team'].map((slug) => `${d.url}/pricing#plan-${slug}`));
    for (const plan of plans) {
      expect(plan.name.length).toBeGreaterThan(0);
      expect(plan.priceSuffix.length).toBeGreaterThan(0);
      expect(plan.description.length).toBeGreaterThan(0);
      expect(plan.features.length).toBeGreaterThan(2);
      expect(Object.keys(plan.caps).sort()).toEqual(['costCap', 'loopInterval', 'loopIntervalFloorMinutes', 'memoryRetention', 'sources']);
    }
    expect(plans[0].caps).toMatchObject({ costCap: '$0.50 a day by default', loopIntervalFloorMinutes: 15, loopInterval: 'A cycle as often as every 15 minutes' });
    expect(plans[1].caps).toMatchObject({ costCap: '$5.00 a day by default', loopIntervalFloorMinutes: 5 });
    expect(plans[2].caps).toMatchObject({ costCap: '$20.00 a day by default', loopIntervalFloorMinutes: 1, loopInterval: 'A cycle as often as every minute' });
    expect(res.body.competitorComparison.rejectedModels.map((m: { key: string }) => m.key)).toEqual(['per-cycle-credits', 'outcome-based-billing', 'per-token-billing']);
    expect(res.body.summary).toEqual({ planCount: 3, startingPriceUsd: 0, featuredPlanSlug: 'pro', positioningNotes: expect.any(Array) });
    expect(res.body.summary.positioningNotes.length).toBeGreaterThan(0);
    expect(res.body).toMatchObject({ currency: 'USD', generatedAt: d.clock.now().toISOString() });
  });

  it('the caps are the ones the desk enforces: a fresh workspace on each DESK_PLAN starts with that cap and loop floor', async () => {
    const plans = (await shared.desk.api('GET', '/api/v1/pricing')).body.plans;
    for (const plan of plans) {
      expect(plan.defaultDailyCostCapUsdCents).toBe(PLAN_DEFAULT_DAILY_COST_CAP_CENTS[plan.slug as 'free']);
      expect(plan.caps.loopIntervalFloorMinutes).toBe(PLAN_LOOP_FLOOR_MINUTES[plan.slug as 'free']);
    }
    const team = await startTestDesk({ seed: { plan: 'team' } });
    try {
      const workspace = (await team.api('GET', '/api/v1/workspace')).body;
      expect(workspace.plan).toBe('team');
      expect(workspace.dailyCostCapUsdCents).toBe(plans[2].defaultDailyCostCapUsdCents);
      expect(workspace.planFloorMinutes).toBe(plans[2].caps.loopIntervalFloorMinutes);
    } finally {
      await team.stop();
    }
  });
});

describe('the /pricing page', () => {
  it('has an anchor per plan (the share URLs), the comparison, the public Cache-Control', async () => {
    const res = await fetch(`${shared.desk.url}/pricing`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe(PUBLIC_CACHE_CONTROL);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    for (const slug of ['free', 'pro', 'team']) expect(html).toContain(`id="plan-${slug}"`);
    expect(html).toContain('<strong>$29</strong>');
    expect(html).toContain('<strong>$79</strong>');
    expect(html).toContain('Per-cycle credits');
    expect(html).toContain(`<link rel="canonical" href="${shared.desk.url}/pricing">`);
    expect(html).toContain('aria-current="page">Pricing');
  });
});
