import { Readable } from 'node:stream';
import { Body, Controller, Get, Post, Produces, Query, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import type { DigestAuditPage, DigestConfig, DigestPreview, DigestPreviewSent, RecipientsGating } from '../../domain/digest/digest-service';
import type { Services } from '../../services';

/** How GET /workspace/digest-preview answers: json (the preview wrapped with recipient, subject and gating) or html (the email's HTML alone). */
export type DigestPreviewFormat = 'json' | 'html';

export interface DigestPreviewBody {
  /** The recipient: an owner or admin (default the owner). */
  userId?: string;
}

/**
 * The daily digest. The production digest goes out once a day from 08:00 workspace time to every
 * owner and admin, at most once per 22 hours per workspace, and qualifies whenever approvals are
 * waiting (even with no new signals), else when the desk did something since the last digest.
 * Each recipient's dashboard preferences gate it: quiet weekends (Saturday and Sunday, workspace
 * time), quiet hours (whole hours, workspace time, wrapping past midnight) and the sections chosen
 * (none chosen mutes it). Gating is decided at the moment of the run: a recipient whose quiet
 * hours cover it is muted for that day (the digest is not resent later). Addresses: the owner's digest goes to the workspace digestEmail when set,
 * else to the owner's email; an admin's to the admin's email; no address mutes it. Mail leaves
 * through SMTP when DESK_SMTP_URL is set, else as an .eml file in the data folder's outbox/.
 * Every decision (would_send or muted, and why) is recorded in the digest audit.
 */
@Route('api/v1/workspace')
@Tags('Digest')
@Security('bearer')
export class DigestController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * Sends a one-shot digest now to an owner or admin. Bypasses (and does not move) the 22-hour
   * workspace gate; honours the recipient's digest preferences exactly as production: during their
   * quiet weekend or quiet hours, or with no section chosen, nothing is sent and the answer says
   * `muted` with the reason. Recorded in the digest audit, logged as `digest.preview`, and emits
   * `digest.sent` or `digest.muted`. An SMTP server that refuses the mail answers 200 with
   * `delivery: failed` and its error (recorded too).
   */
  @Post('digest-preview')
  @Response<ErrorBody>('422', 'userId is not a member (`validation_failed`), or is neither owner nor admin (`role_not_permitted`); nothing was sent')
  public async sendDigestPreview(@Body() body: DigestPreviewBody): Promise<DigestPreviewSent> {
    return this.s.digest.sendPreview(body.userId);
  }

  /**
   * Renders the digest the recipient would get, without sending or logging (no email-provider
   * precondition). json (default): `{ recipient, subject, html, text, gating }`, gating being the
   * decision at simulatedDate (or now); html: the email's HTML alone. The content is always the
   * desk as it is now; simulatedDate only moves the weekend and quiet-hours decisions (and the
   * date in the subject).
   * @param userId an owner or admin (default the owner)
   * @param format json (default) or html
   * @param simulatedDate ISO 8601 time, or a date (08:00 workspace time that day), within 60 days of now either way
   */
  @Get('digest-preview')
  @Produces('application/json')
  @Produces('text/html')
  @Response<ErrorBody>('422', 'userId is not an owner or admin, format is not json or html, or simulatedDate is malformed or more than 60 days away')
  public async getDigestPreview(@Query() userId?: string, @Query() format: DigestPreviewFormat = 'json', @Query() simulatedDate?: string): Promise<DigestPreview | Readable> {
    const preview = await this.s.digest.preview(userId, simulatedDate);
    if (format === 'json') return preview;
    this.setHeader('Content-Type', 'text/html; charset=utf-8');
    return Readable.from([preview.html]);
  }

  /**
   * The gating decision for every owner and admin at simulatedDate (or now), read-only: outcome
   * (would_send or muted), reason (ready, quiet_weekend, quiet_hours, no_sections, no_address) and
   * a sentence; plus the workspace's 22-hour gate at that instant. Whether there is anything to
   * report is decided when the digest runs.
   * @param simulatedDate ISO 8601 time, or a date (08:00 workspace time that day), within 60 days of now either way
   */
  @Get('digest-recipients-gating')
  @Response<ErrorBody>('422', 'simulatedDate is malformed or more than 60 days away')
  public async getDigestRecipientsGating(@Query() simulatedDate?: string): Promise<RecipientsGating> {
    return this.s.digest.recipientsGating(simulatedDate);
  }

  /** digestEmail, timezone, how mail leaves (smtp or outbox), the schedule (08:00, the 22-hour gate, last and next run) and every owner and admin with their address and digest preferences. Read-only. */
  @Get('digest-config')
  public async getDigestConfig(): Promise<DigestConfig> {
    return this.s.digest.config();
  }

  /**
   * Gating-change records, newest first: every production decision per recipient, every one-shot
   * preview, and every change of an owner's or admin's digest preferences (with the gating it
   * gives now). Entries `{ id, createdAt, detail, outcome, recipientLabel, ... }`.
   * @param sinceDays the window in days, 1-365 (default 30)
   * @param limit entries per page, 1-500 (default 100)
   * @param cursor nextCursor of the previous page
   * @isInt sinceDays must be an integer
   * @isInt limit must be an integer
   */
  @Get('digest-audit')
  @Response<ErrorBody>('422', 'sinceDays, limit or cursor out of bounds')
  public async getDigestAudit(@Query() sinceDays = 30, @Query() limit = 100, @Query() cursor?: string): Promise<DigestAuditPage> {
    return this.s.digest.audit({ sinceDays, limit, cursor });
  }
}
