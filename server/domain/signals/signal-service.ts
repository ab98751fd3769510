import type { Db } from '../../../db/connection';
import { inTransaction, type Trx } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { DeskError, invalid, notFound } from '../../core/errors';
import { pageRequest, toPage, type Page } from '../../core/lists';
import { parseIso } from '../../core/workspace-time';
import { recordActivity, type Actor } from '../activity/activity';
import { once } from '../idempotency/idempotency';
import { markIngestTokenUsed } from '../ingest/ingest-service';
import { resolveActor } from '../members/resolve-actor';
import { checkEmoji, type ReactionEmoji } from '../reactions/reactions';
import type { WorkspaceService } from '../workspace/workspace-service';
import { checkBulkIds, checkSignalInput, deliveryIdempotencyScope, readInboundDelivery, SIGNAL_LIST, type InboundDelivery, type SignalInput } from './signal-rules';
import { deleteSignals, insertSignal, setSignalsPinned, type FreshSignalStamp } from './signal-store';
import { toggleReactionRow } from '../reactions/reaction-store';
import { SIGNAL_CURSOR_SHAPE, selectSignals, signalCursorKey, signalListQuery, toSignals, type Signal, type SignalReactionSummary } from './signal-view';

export type { Signal, SignalKind, SignalPriority, SignalReactionSummary } from './signal-view';

export interface SignalListQuery {
  /** 1..SIGNAL_LIST.maxLimit; SIGNAL_LIST.defaultLimit when absent. */
  limit?: number;
  /** nextCursor of the previous page, served with the same filters. */
  cursor?: string;
  since?: string;
  sourceId?: string;
  asUserId?: string;
}

export type SignalBulkAction = 'delete' | 'pin';

export interface SignalBulkResult {
  action: SignalBulkAction;
  /** Signals deleted, or pinned/unpinned (known ids, counted once each). */
  affected: number;
  /** Ids that matched no signal; the action was applied to the others. */
  notFound: string[];
}

export interface SignalReactionResult {
  signalId: string;
  emoji: ReactionEmoji;
  /** true when this call added the reaction, false when it removed it. */
  reacted: boolean;
  /** The signal's reactions after the toggle. */
  reactions: SignalReactionSummary[];
}

export interface InboundDeliveryResult {
  /** Signals created by this delivery. */
  accepted: number;
  /** Signals skipped because their externalId is already on the desk. */
  duplicates: number;
  /** One id per signal sent, in order (the existing id for a duplicate). */
  signalIds: string[];
}

/** Who pushed a signal through the inbound webhook, in the activity log. */
export const WEBHOOK_ACTOR: Actor = { userId: null, label: 'webhook' };

/** Signals: the list, manual creation, bulk actions, reactions and the inbound webhook. */
export class SignalService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly workspace: WorkspaceService,
    /** The sources area's stampFreshSignal (start.ts wires it: sources sit above signals). */
    private readonly stampSource: FreshSignalStamp,
  ) {}

  /** One page of recent signals, newest first (pinned ones do not float). */
  async list(query: SignalListQuery): Promise<Page<Signal>> {
    const { limit, after } = pageRequest(SIGNAL_LIST, query, SIGNAL_CURSOR_SHAPE);
    // A date alone means the start of that workspace-timezone day.
    const since = query.since === undefined ? undefined : parseIso('since', query.since, (await this.workspace.profile()).timezone).toISOString();
    const viewer = await resolveActor(this.db, query.asUserId);
    const rows = await signalListQuery(this.db, { fetch: limit + 1, since, sourceId: query.sourceId, after }).execute();
    const page = toPage(rows, limit, signalCursorKey);
    return { rows: await toSignals(this.db, page.rows, viewer.userId), nextCursor: page.nextCursor };
  }

  /** One signal, as the list shows it (a search hit opens it: /signals?signal=<id>). */
  async get(signalId: string, asUserId?: string): Promise<Signal> {
    const viewer = await resolveActor(this.db, asUserId);
    const row = await selectSignals(this.db).where('signals.id', '=', signalId).executeTakeFirst();
    if (!row) throw notFound('signal', signalId);
    const [signal] = await toSignals(this.db, [row], viewer.userId);
    return signal;
  }

  /** A signal written by hand (POST /signals); logged as `signal.created` by the owner. */
  async create(input: SignalInput): Promise<Signal> {
    const signal = checkSignalInput(input);
    return inTransaction(this.db, async (trx) => {
      const actor = await resolveActor(trx);
      const createdAt = this.clock.now().toISOString();
      const id = await insertSignal(trx, this.clock, { ...signal, origin: 'manual', createdAt }, this.stampSource);
      await recordActivity(trx, this.clock, {
        kind: 'signal.created',
        detail: `Signal created: ${signal.title}`,
        actor,
        entityType: 'signal',
        entityId: id,
      });
      // What reading it back would return (as toSignals shapes it): a new manual signal has no
      // source, no external id and no reactions, and is not pinned. Two queries fewer per create.
      const created: Signal = {
        id,
        kind: signal.kind,
        priority: signal.priority,
        title: signal.title,
        detail: signal.detail,
        sourceUrl: signal.sourceUrl ?? null,
        sourceId: null,
        sourceLabel: null,
        externalId: null,
        pinned: false,
        reactions: [],
        createdAt,
        publishedAt: null,
      };
      return created;
    });
  }

  /**
   * Deletes or pins/unpins 1-50 signals, by the bulk policy of server/core/errors.ts: unknown ids
   * are listed in `notFound` and the action is applied to the rest (200 with `affected: 0` when
   * none matched); one activity row names the count (none when nothing matched).
   */
  async bulk(action: SignalBulkAction, signalIds: string[], pinned = true): Promise<SignalBulkResult> {
    if (action !== 'delete' && action !== 'pin') throw invalid('action', 'must be delete or pin');
    const ids = checkBulkIds(signalIds);
    return inTransaction(this.db, async (trx) => {
      const actor = await resolveActor(trx);
      const found = new Set((await trx.selectFrom('signals').select('id').where('id', 'in', ids).execute()).map((r) => r.id));
      const known = ids.filter((id) => found.has(id));
      const missing = ids.filter((id) => !found.has(id));
      if (known.length > 0) {
        if (action === 'delete') {
          await deleteSignals(trx, known);
        } else {
          await setSignalsPinned(trx, known, pinned);
        }
        const verb = action === 'delete' ? 'Deleted' : pinned ? 'Pinned' : 'Unpinned';
        await recordActivity(trx, this.clock, {
          kind: action === 'delete' ? 'signal.bulk_deleted' : pinned ? 'signal.bulk_pinned' : 'signal.bulk_unpinned',
          detail: `${verb} ${known.length} signal${known.length === 1 ? '' : 's'}`,
          actor,
          entityType: 'signal',
        });
      }
      return { action, affected: known.length, notFound: missing };
    });
  }

  /** Toggles one member's reaction on a signal: a second identical call removes it. */
  async toggleReaction(signalId: string, emojiInput: string, asUserId?: string): Promise<SignalReactionResult> {
    const emoji = checkEmoji(emojiInput);
    return inTransaction(this.db, async (trx) => {
      const actor = await resolveActor(trx, asUserId);
      const userId = actor.userId;
      const signal = await trx.selectFrom('signals').select(['id', 'title']).where('id', '=', signalId).executeTakeFirst();
      if (!signal) throw notFound('signal', signalId);
      const { reacted, reactions } = await toggleReactionRow(trx, this.clock, 'signal', signalId, userId, emoji);
      const removed = !reacted;
      await recordActivity(trx, this.clock, {
        kind: removed ? 'signal.reaction_removed' : 'signal.reaction_added',
        detail: `${removed ? 'Removed' : 'Added'} ${emoji} on signal: ${signal.title}`,
        actor,
        entityType: 'signal',
        entityId: signalId,
      });
      return { signalId, emoji, reacted, reactions };
    });
  }

  /**
   * The inbound webhook: a delivery already read by readInboundDelivery (1-100 signals), created
   * in one transaction, each logged as `signal.received`. Its idempotency keys go through the
   * kit's `once()`: a delivery carrying a stored key (7 days) returns the first response
   * (`replayed: true`) and creates nothing. A signal whose externalId is already on the desk is
   * not created again. A signal that names its source (sourceId) is fresh signal from it, as a
   * polled item is: it stamps the source's lastSignalAt and ends its quietness ack (insertSignal).
   * A delivery through a scoped ingest URL (`via`, see scopeDelivery) keeps its keys apart from the
   * workspace URL's, stamps the token's lastUsedAt, and is refused as an unknown route when the
   * token was revoked since the webhook checked it.
   */
  async receive(delivery: InboundDelivery): Promise<{ replayed: boolean; result: InboundDeliveryResult }> {
    return inTransaction(this.db, (trx) => once(trx, this.clock, deliveryIdempotencyScope(delivery), delivery.idempotencyKeys, () => this.createDelivered(trx, delivery)));
  }

  /**
   * A relayed request (server/integrations/relay), delivered in-process: read exactly as the webhook
   * reads a body, stored through receive() with the relay's key. Answers in the webhook's terms
   * (201 stored or replayed, 4xx refused with the reason); an unexpected failure throws (retried).
   */
  async receiveRelayed(request: { body: unknown; idempotencyKey?: string }): Promise<{ status: number; message?: string }> {
    try {
      await this.receive(readInboundDelivery(request.body, request.idempotencyKey));
      return { status: 201 };
    } catch (err) {
      if (err instanceof DeskError && err.status < 500) return { status: err.status, message: err.message };
      throw err;
    }
  }

  private async createDelivered(trx: Trx, delivery: InboundDelivery): Promise<InboundDeliveryResult> {
    if (delivery.via && !(await markIngestTokenUsed(trx, this.clock, delivery.via.tokenId))) {
      throw new DeskError(404, 'not_found', 'No such API route');
    }
    const prepared = delivery.signals;
    // A signal may name its source: that source must exist (422 naming the field, nothing created).
    const named = [...new Set(prepared.flatMap((s) => (s.sourceId === null ? [] : [s.sourceId])))];
    const labels = new Map(
      named.length === 0 ? [] : (await trx.selectFrom('sources').select(['id', 'label']).where('id', 'in', named).execute()).map((r) => [r.id, r.label]),
    );
    prepared.forEach((s, i) => {
      if (s.sourceId !== null && !labels.has(s.sourceId)) throw invalid(delivery.batch ? `signals[${i}].sourceId` : 'sourceId', 'is not a source of this desk');
    });
    const signalIds: string[] = [];
    const byExternalId = new Map<string, string>();
    let accepted = 0;
    for (const signal of prepared) {
      const known = signal.externalId === null ? undefined : (byExternalId.get(signal.externalId) ?? (await this.idOfExternal(trx, signal.externalId)));
      if (known !== undefined) {
        signalIds.push(known);
        continue;
      }
      const id = await insertSignal(trx, this.clock, { ...signal, origin: 'webhook' }, this.stampSource);
      if (signal.externalId !== null) byExternalId.set(signal.externalId, id);
      await recordActivity(trx, this.clock, {
        kind: 'signal.received',
        detail: `Signal received through ${delivery.via ? 'an ingest URL' : 'the inbound webhook'}${signal.sourceId === null ? '' : ` for ${labels.get(signal.sourceId)}`}: ${signal.title}`,
        actor: WEBHOOK_ACTOR,
        entityType: 'signal',
        entityId: id,
      });
      signalIds.push(id);
      accepted += 1;
    }
    return { accepted, duplicates: prepared.length - accepted, signalIds };
  }

  private async idOfExternal(db: Db, externalId: string): Promise<string | undefined> {
    const row = await db.selectFrom('signals').select('id').where('externalId', '=', externalId).executeTakeFirst();
    return row?.id;
  }
}
