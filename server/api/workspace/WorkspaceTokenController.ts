import { Controller, Post, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import { webhookUrl } from '../../domain/ingest/rules';
import type { Services } from '../../services';

export interface RotatedToken {
  /** The new workspace token (256 bits, base64url): the bearer token of the API from now on. Shown once here. */
  token: string;
  /** The new workspace webhook URL on this machine (it contains the new token). */
  webhookUrl: string;
  /** @format date-time */
  rotatedAt: string;
}

/** The workspace token: rotation (a leaked token or webhook URL is made useless at once). */
@Route('api/v1/workspace/token')
@Tags('Workspace configuration')
@Security('bearer')
export class WorkspaceTokenController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * Replaces the workspace token with a new random 256-bit one, logged as
   * `workspace.token_rotated` (the token is never in the log) and emitting the
   * `workspace.token_rotated` event. From the moment this answers, the old token is refused by
   * the bearer API (401) and the old webhook URL answers 404 like any unknown route: scripts and
   * senders that use them must be given the new ones. Sources' scoped ingest URLs keep working, and
   * the relay keeps delivering (it does not use the token). The answer carries the new token and
   * webhook URL; this is the only time the API shows the token.
   */
  @Post('rotate')
  @Response<ErrorBody>('401', 'Missing or invalid bearer token')
  public async rotateWorkspaceToken(): Promise<RotatedToken> {
    const { token, rotatedAt } = await this.s.workspace.rotateToken();
    return { token, webhookUrl: webhookUrl(this.s.localUrl, token), rotatedAt };
  }
}
