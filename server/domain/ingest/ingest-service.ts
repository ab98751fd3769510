import type { Db } from '../../../db/connection';
import type { IngestTokenTable } from '../../../db/schema';
import { inTransaction, type Trx } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { conflict, notFound } from '../../core/errors';
import { newId } from '../../core/ids';
import { recordActivity } from '../activity/activity';
import { emit } from '../events/outbox';
import { resolveActor } from '../members/resolve-actor';
import {
  checkIngestTokenLabel,
  hashIngestToken,
  ingestTokenHint,
  isScopedToken,
  MAX_INGEST_TOKENS_PER_SOURCE,
  newIngestToken,
} from './rules';

/** A scoped ingest URL's token as lists show it: never the token, only its hint. */
export interface IngestToken {
  id: string;
  sourceId: string;
  /** Who uses it, e.g. the sending service; the source's label when none was given. */
  label: string;
  /** The token's prefix and last characters, to recognise it: `dski_…AbC9`. */
  tokenHint: string;
  /** @format date-time */
  createdAt: string;
  /** When it last pushed signals; null when never. @format date-time */
  lastUsedAt: string | null;
}

/** The answer to creating one: the only time the token is shown. */
export interface CreatedIngestToken extends IngestToken {
  /** The token itself. Shown once: only its hash is kept. */
  token: string;
}

/** Who a scoped token lets push, once it has been checked. */
export interface IngestScope {
  tokenId: string;
  sourceId: string;
}

type Row = Pick<IngestTokenTable, 'id' | 'sourceId' | 'label' | 'tokenHint' | 'createdAt' | 'lastUsedAt'>;
const COLUMNS = ['id', 'sourceId', 'label', 'tokenHint', 'createdAt', 'lastUsedAt'] as const;
const toView = (r: Row): IngestToken => ({ id: r.id, sourceId: r.sourceId, label: r.label, tokenHint: r.tokenHint, createdAt: r.createdAt, lastUsedAt: r.lastUsedAt });

/**
 * Marks a scoped token used, inside the transaction of the delivery it made; false when it was
 * revoked (or its source deleted) since it was checked, so the delivery can be refused whole.
 */
export async function markIngestTokenUsed(trx: Trx, clock: Clock, tokenId: string): Promise<boolean> {
  const res = await trx.updateTable('ingestTokens').set({ lastUsedAt: clock.now().toISOString() }).where('id', '=', tokenId).where('revokedAt', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Scoped ingest URLs: create (token shown once), list (no secrets), revoke, and resolve a presented token. */
export class IngestTokenService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** A source's active scoped URLs, newest first (at most MAX_INGEST_TOKENS_PER_SOURCE). 404 for an unknown source. */
  async list(sourceId: string): Promise<IngestToken[]> {
    await this.source(this.db, sourceId);
    const rows = await this.db
      .selectFrom('ingestTokens')
      .select(COLUMNS)
      .where('sourceId', '=', sourceId)
      .where('revokedAt', 'is', null)
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(toView);
  }

  /**
   * A new scoped URL for a source, logged as `ingest_token.created` (the token is never in the log
   * or the event). 404 for an unknown source, 409 `limit_reached` at MAX_INGEST_TOKENS_PER_SOURCE.
   */
  async create(sourceId: string, input: { label?: string | null } = {}): Promise<CreatedIngestToken> {
    return inTransaction(this.db, async (trx) => {
      const source = await this.source(trx, sourceId);
      const label = checkIngestTokenLabel(input.label, source.label);
      const active = await trx.selectFrom('ingestTokens').select((eb) => eb.fn.countAll<number>().as('n')).where('sourceId', '=', sourceId).where('revokedAt', 'is', null).executeTakeFirstOrThrow();
      if (Number(active.n) >= MAX_INGEST_TOKENS_PER_SOURCE) {
        throw conflict('limit_reached', `${source.label} already has ${MAX_INGEST_TOKENS_PER_SOURCE} ingest URLs: revoke one first`);
      }
      const actor = await resolveActor(trx);
      const token = newIngestToken();
      const row: Row = { id: newId('ing', this.clock), sourceId, label, tokenHint: ingestTokenHint(token), createdAt: this.clock.now().toISOString(), lastUsedAt: null };
      await trx.insertInto('ingestTokens').values({ ...row, tokenHash: hashIngestToken(token), revokedAt: null }).execute();
      await recordActivity(trx, this.clock, {
        kind: 'ingest_token.created',
        detail: `Ingest URL created for ${source.label}: ${label} (${row.tokenHint})`,
        actor,
        entityType: 'source',
        entityId: sourceId,
      });
      await emit(trx, this.clock, 'ingest_token.created', { sourceId, label: source.label, tokenId: row.id, tokenLabel: label });
      return { ...toView(row), token };
    });
  }

  /** Revokes a scoped URL at once, logged as `ingest_token.revoked`. 404 for an unknown or already revoked one. */
  async revoke(tokenId: string): Promise<IngestToken> {
    return inTransaction(this.db, async (trx) => {
      const row = await trx.selectFrom('ingestTokens').select(COLUMNS).where('id', '=', tokenId).where('revokedAt', 'is', null).executeTakeFirst();
      if (!row) throw notFound('ingest_token', tokenId);
      const source = await this.source(trx, row.sourceId);
      const actor = await resolveActor(trx);
      await trx.updateTable('ingestTokens').set({ revokedAt: this.clock.now().toISOString() }).where('id', '=', tokenId).execute();
      await recordActivity(trx, this.clock, {
        kind: 'ingest_token.revoked',
        detail: `Ingest URL revoked for ${source.label}: ${row.label} (${row.tokenHint})`,
        actor,
        entityType: 'source',
        entityId: row.sourceId,
      });
      await emit(trx, this.clock, 'ingest_token.revoked', { sourceId: row.sourceId, label: source.label, tokenId, tokenLabel: row.label });
      return toView(row);
    });
  }

  /** The scope of a presented token, or null when it is no active scoped token (wrong, revoked, source gone). */
  async resolve(token: string): Promise<IngestScope | null> {
    if (!isScopedToken(token)) return null;
    const row = await this.db.selectFrom('ingestTokens').select(['id', 'sourceId']).where('tokenHash', '=', hashIngestToken(token)).where('revokedAt', 'is', null).executeTakeFirst();
    return row ? { tokenId: row.id, sourceId: row.sourceId } : null;
  }

  private async source(db: Db, sourceId: string): Promise<{ id: string; label: string }> {
    const source = await db.selectFrom('sources').select(['id', 'label']).where('id', '=', sourceId).executeTakeFirst();
    if (!source) throw notFound('source', sourceId);
    return source;
  }
}
