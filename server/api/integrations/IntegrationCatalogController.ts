import { Controller, Get, Route, Tags } from '@tsoa/runtime';
import { integrationCatalog, type IntegrationCatalog } from '../../domain/integrations-catalog/catalog';
import type { Services } from '../../services';
import { cachePublicly } from '../public/public-http';

/**
 * The public integration catalog at exactly /api/v1/integrations. The bearer routes under
 * /api/v1/integrations/... (inbound, relay) are IntegrationsController's: different paths, so both live.
 */
@Route('api/v1')
@Tags('Public')
export class IntegrationCatalogController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * Public. What Desk integrates with, in three groups in this order: Inbound (how signals arrive),
   * Outbound (what the desk sends or calls), Programmatic (API, OpenAPI document, exports,
   * import). Each item carries how it authenticates and the release it shipped in (`rev <n>`).
   * `perAxis` counts the items of each group. Cache-Control `public, max-age=300, s-maxage=1800`.
   */
  @Get('integrations')
  public async getIntegrationCatalog(): Promise<IntegrationCatalog> {
    cachePublicly(this);
    return integrationCatalog(this.s.clock.now());
  }
}
