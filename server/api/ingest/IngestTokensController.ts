import { Body, Controller, Delete, Get, Path, Post, Response, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import type { CreatedIngestToken, IngestToken } from '../../domain/ingest/ingest-service';
import { webhookUrl } from '../../domain/ingest/rules';
import type { Services } from '../../services';

export interface CreateIngestTokenBody {
  /**
   * Who will use the URL, e.g. the sending service; the source's label when left out. Trimmed.
   * @example "Zapier: new reviews"
   */
  label?: string;
}

/** A new scoped ingest URL: the token and URL are shown here once (only a hash of the token is kept). */
export interface CreatedIngestUrl extends CreatedIngestToken {
  /** POST signals here (same body, limits and idempotency rules as the workspace webhook URL). */
  webhookUrl: string;
}

export interface IngestTokenList {
  /** The source's active scoped ingest URLs (at most 10), newest first; never the tokens. */
  ingestTokens: IngestToken[];
}

/**
 * Scoped ingest URLs (beyond the spec). The spec's webhook URL carries the workspace token, which
 * also opens the whole API. A scoped ingest URL carries a token of its own that can only push
 * signals through POST /api/webhooks/signals/{token}, and only to its source: a leaked one can push
 * signals to that source and nothing else, and is revoked at once. It never opens the bearer API.
 */
@Route('api/v1')
@Tags('Scoped ingest URLs')
@Security('bearer')
export class IngestTokensController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /** A source's active scoped ingest URLs, without their tokens (each shows a hint and when it was last used). */
  @Get('sources/{id}/ingest-tokens')
  @Response<ErrorBody>('404', '`source_not_found`')
  public async listIngestTokens(@Path() id: string): Promise<IngestTokenList> {
    return { ingestTokens: await this.s.ingest.list(id) };
  }

  /**
   * Creates a scoped ingest URL for a source (any type; a `manual` source made for the sending
   * service is the usual choice), logged as `ingest_token.created` and emitting that event. The
   * answer is the only time the token and URL are shown. At most 10 active URLs per source.
   */
  @Post('sources/{id}/ingest-tokens')
  @SuccessResponse(201, 'Created')
  @Response<ErrorBody>('404', '`source_not_found`')
  @Response<ErrorBody>('409', '`limit_reached`: the source has 10 active ingest URLs; nothing was created')
  @Response<ErrorBody>('422', 'label out of bounds; nothing was created')
  public async createIngestToken(@Path() id: string, @Body() body: CreateIngestTokenBody): Promise<CreatedIngestUrl> {
    const created = await this.s.ingest.create(id, { label: body.label });
    this.setStatus(201);
    return { ...created, webhookUrl: webhookUrl(this.s.localUrl, created.token) };
  }

  /**
   * Revokes a scoped ingest URL: from this answer on, its URL answers 404 exactly like a wrong
   * token. Logged as `ingest_token.revoked` and emitting that event. An unknown or already revoked
   * id is a 404.
   */
  @Delete('ingest-tokens/{tokenId}')
  @Response<ErrorBody>('404', '`ingest_token_not_found`')
  public async revokeIngestToken(@Path() tokenId: string): Promise<IngestToken> {
    return this.s.ingest.revoke(tokenId);
  }
}
