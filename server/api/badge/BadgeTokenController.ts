import { Body, Controller, Delete, Get, Post, Query, Request, Response, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import type { Request as ExRequest } from 'express';
import type { ErrorBody } from '../../core/errors';
import type { BadgeTokenInfo } from '../../domain/badge/badge-service';
import type { Services } from '../../services';
import { baseUrlOf } from '../public/public-http';

export interface BadgeTokenBody {
  /** The member making the change (logged as the actor); defaults to the workspace owner. */
  asUserId?: string;
}

/**
 * The health badge's read-only token (GET /badge.svg?token=...). It is not the workspace token and
 * opens nothing else, so it can sit in a public README. 192 random bits, compared in constant time.
 * The badge URL and Markdown are built on the address this request reached the desk on.
 */
@Route('api/v1/workspace/badge-token')
@Tags('Workspace configuration')
@Security('bearer')
export class BadgeTokenController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /** The badge token, its badge URL and the Markdown to paste (all null while none is issued). */
  @Get()
  public async getBadgeToken(@Request() req: ExRequest): Promise<BadgeTokenInfo> {
    return this.s.badge.info(baseUrlOf(req));
  }

  /**
   * Issues the badge token (201, logged as `badge_token.issued`). When one is already issued it is
   * answered as it is (200, nothing written): use /rotate to replace it.
   */
  @Post()
  @SuccessResponse('201', 'Issued')
  @Response<BadgeTokenInfo>('200', 'A token was already issued: answered unchanged')
  @Response<ErrorBody>('422', 'asUserId is not a member; nothing was written')
  public async issueBadgeToken(@Request() req: ExRequest, @Body() body?: BadgeTokenBody): Promise<BadgeTokenInfo> {
    const { info, created } = await this.s.badge.issue(baseUrlOf(req), body?.asUserId);
    this.setStatus(created ? 201 : 200);
    return info;
  }

  /**
   * Replaces the badge token with a new one (or issues the first), logged as `badge_token.rotated`.
   * From the moment this answers, the old badge URL shows the grey "unknown" badge.
   */
  @Post('rotate')
  @Response<ErrorBody>('422', 'asUserId is not a member; nothing was written')
  public async rotateBadgeToken(@Request() req: ExRequest, @Body() body?: BadgeTokenBody): Promise<BadgeTokenInfo> {
    return this.s.badge.rotate(baseUrlOf(req), body?.asUserId);
  }

  /**
   * Revokes the badge token: every badge URL shows "unknown" until a new one is issued. Logged as
   * `badge_token.revoked`; answers the (now empty) badge token state, also when none was issued
   * (nothing written then).
   * @param asUserId the member making the change; defaults to the workspace owner
   */
  @Delete()
  @Response<ErrorBody>('422', 'asUserId is not a member; nothing was written')
  public async revokeBadgeToken(@Request() req: ExRequest, @Query() asUserId?: string): Promise<BadgeTokenInfo> {
    await this.s.badge.revoke(asUserId);
    return this.s.badge.info(baseUrlOf(req));
  }
}
