import type { Db } from '../../../db/connection';
import { inTransaction, type Trx } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { recordActivity } from '../activity/activity';
import { resolveActor } from '../members/resolve-actor';
import type { StatsService } from '../stats/stats-service';
import { renderBadge } from './badge-svg';
import { BADGE_LABEL, badgeTokenMatches, healthColor, MAX_BADGE_TOKEN_LENGTH, newBadgeToken, UNKNOWN_COLOR } from './rules';

export interface BadgeTokenInfo {
  /** Whether a badge token is issued (the badge shows the score only then). */
  issued: boolean;
  /** The read-only badge token; it opens GET /badge.svg and nothing else. null when none is issued. */
  token: string | null;
  /** @format date-time */
  issuedAt: string | null;
  /** The badge's address on the base URL this request reached the desk on. */
  badgeUrl: string | null;
  /** Markdown to paste into a README: the badge image. */
  markdown: string | null;
}

/** The badge as a shields.io endpoint badge (https://shields.io/badges/endpoint-badge). */
export interface BadgeEndpoint {
  /** Always 1. @isInt */
  schemaVersion: number;
  label: string;
  message: string;
  /** Hex colour of the message box. */
  color: string;
}

export interface BadgeImage {
  svg: string;
  endpoint: BadgeEndpoint;
  /** Whether the token was the issued one (the score is shown) or not (the grey "unknown" badge). */
  known: boolean;
  /** The score shown, null on the unknown badge. */
  healthScore: number | null;
}

const ISSUED = 1;

/** The health badge: its token (issue, rotate, revoke) and the SVG. The score is GET /stats' own. */
export class BadgeService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly stats: StatsService,
  ) {}

  async info(baseUrl: string): Promise<BadgeTokenInfo> {
    const row = await this.db.selectFrom('badgeToken').select(['token', 'issuedAt']).where('id', '=', ISSUED).executeTakeFirst();
    return toInfo(baseUrl, row);
  }

  /** Issues the token when none is issued; an issued one is answered as it is (nothing written). */
  async issue(baseUrl: string, asUserId?: string): Promise<{ info: BadgeTokenInfo; created: boolean }> {
    return inTransaction(this.db, async (trx) => {
      const actor = await resolveActor(trx, asUserId);
      const row = await trx.selectFrom('badgeToken').select(['token', 'issuedAt']).where('id', '=', ISSUED).executeTakeFirst();
      if (row) return { info: toInfo(baseUrl, row), created: false };
      const fresh = await this.write(trx);
      await recordActivity(trx, this.clock, { kind: 'badge_token.issued', detail: 'Badge token issued: the health badge can be shown', actor, entityType: 'badge_token' });
      return { info: toInfo(baseUrl, fresh), created: true };
    });
  }

  /** A new token replaces the old one (or the first is issued): from now on the old badge URL shows "unknown". */
  async rotate(baseUrl: string, asUserId?: string): Promise<BadgeTokenInfo> {
    return inTransaction(this.db, async (trx) => {
      const actor = await resolveActor(trx, asUserId);
      const fresh = await this.write(trx);
      await recordActivity(trx, this.clock, { kind: 'badge_token.rotated', detail: 'Badge token rotated: the old badge URL no longer shows the score', actor, entityType: 'badge_token' });
      return toInfo(baseUrl, fresh);
    });
  }

  /** Revokes the token (the badge shows "unknown" everywhere). True when one was issued. */
  async revoke(asUserId?: string): Promise<boolean> {
    return inTransaction(this.db, async (trx) => {
      const actor = await resolveActor(trx, asUserId);
      const deleted = await trx.deleteFrom('badgeToken').where('id', '=', ISSUED).executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) return false;
      await recordActivity(trx, this.clock, { kind: 'badge_token.revoked', detail: 'Badge token revoked: the health badge shows "unknown"', actor, entityType: 'badge_token' });
      return true;
    });
  }

  /** The badge for a `token` query value: the score with the issued token, else the grey "unknown" badge. */
  async image(token: string | undefined): Promise<BadgeImage> {
    if (await this.tokenIsIssued(token)) {
      const { healthScore } = await this.stats.stats();
      return { ...badgeOf(`${healthScore}/100`, healthColor(healthScore)), known: true, healthScore };
    }
    return { ...badgeOf('unknown', UNKNOWN_COLOR), known: false, healthScore: null };
  }

  private async tokenIsIssued(token: string | undefined): Promise<boolean> {
    if (typeof token !== 'string' || token.length === 0 || token.length > MAX_BADGE_TOKEN_LENGTH) return false;
    const row = await this.db.selectFrom('badgeToken').select('token').where('id', '=', ISSUED).executeTakeFirst();
    return row !== undefined && badgeTokenMatches(token, row.token);
  }

  private async write(trx: Trx): Promise<{ token: string; issuedAt: string }> {
    const fresh = { token: newBadgeToken(), issuedAt: this.clock.now().toISOString() };
    await trx
      .insertInto('badgeToken')
      .values({ id: ISSUED, ...fresh })
      .onConflict((oc) => oc.column('id').doUpdateSet(fresh))
      .execute();
    return fresh;
  }
}

function badgeOf(message: string, color: string): { svg: string; endpoint: BadgeEndpoint } {
  return { svg: renderBadge(BADGE_LABEL, message, color), endpoint: { schemaVersion: 1, label: BADGE_LABEL, message, color } };
}

export function badgeUrlOf(baseUrl: string, token: string): string {
  return `${baseUrl}/api/v1/badge.svg?token=${encodeURIComponent(token)}`;
}

function toInfo(baseUrl: string, row: { token: string; issuedAt: string } | undefined): BadgeTokenInfo {
  if (!row) return { issued: false, token: null, issuedAt: null, badgeUrl: null, markdown: null };
  const badgeUrl = badgeUrlOf(baseUrl, row.token);
  return { issued: true, token: row.token, issuedAt: row.issuedAt, badgeUrl, markdown: `![Desk health](${badgeUrl})` };
}
