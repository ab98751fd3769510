import { Controller, Get, Request, Route, Tags } from '@tsoa/runtime';
import type { Request as ExRequest } from 'express';
import { pricing, type Pricing } from '../../domain/pricing/pricing';
import type { Services } from '../../services';
import { baseUrlOf, cachePublicly } from '../public/public-http';

@Route('api/v1')
@Tags('Public')
export class PricingController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * Public. The plans (free, pro, team: $0, $29 and $79 a month; pro is featured) with their
   * features and caps, the daily cost cap each starts with (free 50, pro 500, team 2000 US cents:
   * `defaultDailyCostCapUsd` carries cents, as the public document states, and
   * `defaultDailyCostCapUsdCents` the same number named by its unit), each plan's share URL
   * `{base_url}/pricing#plan-<slug>`, the three pricing models Desk rejects (per-cycle credits,
   * outcome-based billing, per-token billing) and a summary (`startingPriceUsd` is the lowest
   * plan price: 0). The loop interval floors and default caps are the ones the desk enforces for
   * DESK_PLAN. Cache-Control `public, max-age=300, s-maxage=1800`.
   */
  @Get('pricing')
  public async getPricing(@Request() req: ExRequest): Promise<Pricing> {
    cachePublicly(this);
    return pricing(baseUrlOf(req), this.s.clock.now());
  }
}
