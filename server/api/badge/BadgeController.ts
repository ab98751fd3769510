import { Readable } from 'node:stream';
import { Controller, Get, Produces, Query, Request, Route, Tags } from '@tsoa/runtime';
import type { Request as ExRequest } from 'express';
import type { BadgeEndpoint } from '../../domain/badge/badge-service';
import { BADGE_CACHE_CONTROL } from '../../domain/badge/rules';
import type { Services } from '../../services';

@Route('api/v1')
@Tags('Public')
export class BadgeController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * Public (no authorization header). An SVG badge, shields.io flat style, with the desk's health
   * score: the `healthScore` of GET /stats (`desk health | 92/100`, green to red as it falls). The
   * `token` is the read-only badge token issued in Settings or by POST /workspace/badge-token, never
   * the workspace token: it opens this badge and nothing else.
   *
   * A missing, unknown, rotated-away or revoked token answers 200 with a grey `desk health | unknown`
   * badge (and `X-Badge-Status: unknown`), so an image in a README still renders and tells the
   * reader the score is not available, without saying whether a token ever existed.
   * Cache-Control `no-cache`: caches (a README's image proxy) must check again before reuse, so the
   * score stays current and a rotated token stops showing it at once.
   *
   * A client that accepts only `application/json` gets the same badge as a shields.io endpoint
   * badge (`{ schemaVersion: 1, label, message, color }`), so it can be restyled through
   * `https://img.shields.io/endpoint?url=...`; every other request gets the SVG.
   * @param token the badge token (`dbt_...`)
   */
  @Get('badge.svg')
  @Produces('image/svg+xml')
  @Produces('application/json')
  public async getBadge(@Request() req: ExRequest, @Query() token?: string): Promise<BadgeEndpoint | Readable> {
    const badge = await this.s.badge.image(token);
    this.setHeader('Cache-Control', BADGE_CACHE_CONTROL);
    this.setHeader('X-Badge-Status', badge.known ? 'ok' : 'unknown');
    this.setHeader('Vary', 'Accept');
    if (!req.accepts('image/svg+xml') && req.accepts('application/json')) return badge.endpoint;
    this.setHeader('Content-Type', 'image/svg+xml; charset=utf-8');
    return Readable.from([badge.svg]);
  }
}
