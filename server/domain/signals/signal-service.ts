import { inTransaction } from '../../../db/transactions';
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../../db/connection';
import type { SignalTable } from '../../../db/schema';
import type { Clock } from '../../core/clock';
import { invalid, notFound } from '../../core/errors';
import { recordActivity, type Actor } from '../activity/activity';
import type { WorkspaceService } from '../workspace/workspace-service';
import { checkRange } from '../workspace/rules';
import { parseIso } from '../../core/workspace-time';
import {
  IDEMPOTENCY_TTL_MS,
  REACTION_EMOJIS,
  SIGNALS_LIST_MAX,
  checkBulkIds,
  checkEmoji,
  checkSignalInput,
  readInboundDelivery,
  type ReactionEmojiValue,
} from './signal-rules';
import { insertSignal } from './signal-store';

/**
 * Signal kinds, Desk's decision (the spec leaves them open): `news` (articles, feed items),
 * `mention` (the operator's product or name mentioned somewhere), `review` (a customer review),
 * `message` (an inbound message or email), `alert` (something is broken or at risk),
 * `metric` (a number moved), `note` (written by the operator), `other`.
 */
export type SignalKind = 'news' | 'mention' | 'review' | 'message' | 'alert' | 'metric' | 'note' | 'other';
/** Signal priorities, lowest to highest. */
export type SignalPriority = 'low' | 'normal' | 'high' | 'urgent';
/** The reaction emoji set: 👍 👀 🎯 ❤️ 🚀 (❤️ is U+2764 U+FE0F). */
export type ReactionEmoji = '👍' | '👀' | '🎯' | '❤️' | '🚀';

// The unions above spell out SIGNAL_KINDS / SIGNAL_PRIORITIES / REACTION_EMOJIS so tsoa lists them
// as enums; this fails to compile if they drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const enumsMatch: [
  Same<SignalKind, import('./signal-store').SignalKind>,
  Same<SignalPriority, import('./signal-store').SignalPriority>,
  Same<ReactionEmoji, ReactionEmojiValue>,
] = [true, true, true];
void enumsMatch;

export interface SignalReactionSummary {
  emoji: ReactionEmoji;
  /** @isInt */
  count: number;
  /** Members who reacted with this emoji, earliest first. */
  userIds: string[];
  /** Whether the viewer (asUserId, else the workspace owner) reacted with this emoji. */
  reacted: boolean;
}

export interface Signal {
  id: string;
  kind: SignalKind;
  priority: SignalPriority;
  title: string;
  detail: string;
  sourceUrl: string | null;
  /** The source that produced the signal; null for signals created by hand, or pushed in without a sourceId. */
  sourceId: string | null;
  /** That source's label, when the signal has a source. */
  sourceLabel: string | null;
  /** The sender's id of a signal pushed through the inbound webhook. */
  externalId: string | null;
  pinned: boolean;
  /** One entry per emoji that has at least one reaction, in the order 👍 👀 🎯 ❤️ 🚀. */
  reactions: SignalReactionSummary[];
  createdAt: string;
}

export interface SignalListQuery {
  limit: number;
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
/** Namespace of the webhook's rows in idempotency_keys. */
const IDEMPOTENCY_SCOPE = 'signals-webhook:';

/** A signals row as read for the API: the table's columns plus its source's label. */
type SignalRow = Selectable<SignalTable> & { sourceLabel: string | null };

/**
 * The list query: newest first, served by signals_created, or signals_source_created when
 * filtered by source. Exported so a test can check the query plan.
 */
export function signalListQuery(db: Db, query: { limit: number; since?: string; sourceId?: string }) {
  let sel = selectSignals(db);
  if (query.sourceId !== undefined) sel = sel.where('signals.sourceId', '=', query.sourceId);
  if (query.since !== undefined) sel = sel.where('signals.createdAt', '>=', query.since);
  // rowid (insertion order) breaks ties: both indexes carry it, so no sort step is needed.
  return sel.orderBy('signals.createdAt', 'desc').orderBy(sql`signals.rowid`, 'desc').limit(query.limit);
}

function selectSignals(db: Db) {
  return db
    .selectFrom('signals')
    .leftJoin('sources', 'sources.id', 'signals.sourceId')
    .select([
      'signals.id',
      'signals.kind',
      'signals.priority',
      'signals.title',
      'signals.detail',
      'signals.sourceUrl',
      'signals.sourceId',
      'sources.label as sourceLabel',
      'signals.externalId',
      'signals.pinned',
      'signals.createdAt',
    ]);
}

/** Signals: the list, manual creation, bulk actions, reactions and the inbound webhook. */
export class SignalService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly workspace: WorkspaceService,
  ) {}

  /** Recent signals, newest first (pinned ones do not float). */
  async list(query: SignalListQuery): Promise<Signal[]> {
    checkRange('limit', query.limit, 1, SIGNALS_LIST_MAX);
    // A date alone means the start of that workspace-timezone day.
    const since = query.since === undefined ? undefined : parseIso('since', query.since, (await this.workspace.profile()).timezone).toISOString();
    const viewer = await this.viewer(query.asUserId);
    const rows = await signalListQuery(this.db, { limit: query.limit, since, sourceId: query.sourceId }).execute();
    return this.toSignals(this.db, rows, viewer);
  }

  /** One signal as `viewerId` sees it. Inside a transaction pass both `viewerId` and `trx`. */
  async get(id: string, viewerId?: string, db: Db = this.db): Promise<Signal> {
    const rows = await selectSignals(db).where('signals.id', '=', id).execute();
    if (rows.length === 0) throw notFound('signal', id);
    return (await this.toSignals(db, rows, viewerId ?? (await this.viewer())))[0];
  }

  /** A signal written by hand (POST /signals); logged as `signal.created` by the owner. */
  async create(input: { kind: string; priority: string; title: string; detail: string; sourceUrl?: string | null }): Promise<Signal> {
    const signal = checkSignalInput(input);
    const actor = await this.workspace.ownerActor();
    return inTransaction(this.db, async (trx) => {
      const id = await insertSignal(trx, this.clock, signal);
      await recordActivity(trx, this.clock, {
        kind: 'signal.created',
        detail: `Signal created: ${signal.title}`,
        actor,
        entityType: 'signal',
        entityId: id,
      });
      return this.get(id, actor.userId ?? undefined, trx);
    });
  }

  /**
   * Deletes or pins/unpins 1-50 signals. Unknown ids are reported in `notFound` and the action is
   * applied to the rest; one activity row names the count (none when nothing matched).
   */
  async bulk(action: SignalBulkAction, signalIds: string[], pinned = true): Promise<SignalBulkResult> {
    if (action !== 'delete' && action !== 'pin') throw invalid('action', 'must be delete or pin');
    const ids = checkBulkIds(signalIds);
    const actor = await this.workspace.ownerActor();
    return inTransaction(this.db, async (trx) => {
      const found = new Set((await trx.selectFrom('signals').select('id').where('id', 'in', ids).execute()).map((r) => r.id));
      const known = ids.filter((id) => found.has(id));
      const missing = ids.filter((id) => !found.has(id));
      if (known.length > 0) {
        if (action === 'delete') {
          await trx.deleteFrom('signals').where('id', 'in', known).execute();
        } else {
          await trx.updateTable('signals').set({ pinned: pinned ? 1 : 0 }).where('id', 'in', known).execute();
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
    const actor = await this.member(asUserId);
    const userId = actor.userId as string;
    return inTransaction(this.db, async (trx) => {
      const signal = await trx.selectFrom('signals').select(['id', 'title']).where('id', '=', signalId).executeTakeFirst();
      if (!signal) throw notFound('signal', signalId);
      const existing = await trx
        .selectFrom('signalReactions')
        .select('userId')
        .where('signalId', '=', signalId)
        .where('userId', '=', userId)
        .where('emoji', '=', emoji)
        .executeTakeFirst();
      if (existing) {
        await trx.deleteFrom('signalReactions').where('signalId', '=', signalId).where('userId', '=', userId).where('emoji', '=', emoji).execute();
      } else {
        await trx.insertInto('signalReactions').values({ signalId, userId, emoji, createdAt: this.clock.now().toISOString() }).execute();
      }
      await recordActivity(trx, this.clock, {
        kind: existing ? 'signal.reaction_removed' : 'signal.reaction_added',
        detail: `${existing ? 'Removed' : 'Added'} ${emoji} on signal: ${signal.title}`,
        actor,
        entityType: 'signal',
        entityId: signalId,
      });
      const reactions = (await this.reactionsOf(trx, [signalId], userId)).get(signalId) ?? [];
      return { signalId, emoji, reacted: !existing, reactions };
    });
  }

  /**
   * The inbound webhook: a delivery of 1-100 signals (checked by readInboundDelivery) in one
   * transaction, each logged as `signal.received`. With an idempotency key (header, body field, or
   * both), the first delivery's response is stored under each key for 7 days, and a delivery
   * carrying any stored key returns it (`replayed: true`) without creating anything. A signal whose externalId is already on the desk is not created again.
   * A signal that names its source (sourceId) is fresh signal from it, as a polled item is: it
   * stamps the source's lastSignalAt and ends its quietness ack (insertSignal).
   */
  async receive(body: unknown, idempotencyKeyHeader?: string): Promise<{ replayed: boolean; result: InboundDeliveryResult }> {
    const delivery = readInboundDelivery(body, idempotencyKeyHeader);
    const prepared = delivery.signals;
    const keys = delivery.idempotencyKeys.map((k) => IDEMPOTENCY_SCOPE + k);

    return inTransaction(this.db, async (trx) => {
      const now = this.clock.now();
      // Expired keys go first, so a key older than 7 days counts as new (idempotency_created index).
      await trx.deleteFrom('idempotencyKeys').where('createdAt', '<', new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString()).execute();
      if (keys.length > 0) {
        const stored = await trx.selectFrom('idempotencyKeys').select('response').where('key', 'in', keys).orderBy('createdAt').executeTakeFirst();
        if (stored) return { replayed: true, result: JSON.parse(stored.response) as InboundDeliveryResult };
      }
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
        const id = await insertSignal(trx, this.clock, signal);
        if (signal.externalId !== null) byExternalId.set(signal.externalId, id);
        await recordActivity(trx, this.clock, {
          kind: 'signal.received',
          detail: `Signal received through the inbound webhook${signal.sourceId === null ? '' : ` for ${labels.get(signal.sourceId)}`}: ${signal.title}`,
          actor: WEBHOOK_ACTOR,
          entityType: 'signal',
          entityId: id,
        });
        signalIds.push(id);
        accepted += 1;
      }
      const result: InboundDeliveryResult = { accepted, duplicates: prepared.length - accepted, signalIds };
      for (const key of keys) {
        await trx.insertInto('idempotencyKeys').values({ key, response: JSON.stringify(result), createdAt: now.toISOString() }).execute();
      }
      return { replayed: false, result };
    });
  }

  private async idOfExternal(trx: Db, externalId: string): Promise<string | undefined> {
    const row = await trx.selectFrom('signals').select('id').where('externalId', '=', externalId).executeTakeFirst();
    return row?.id;
  }

  /** The member acting: asUserId when given (must be a member), else the workspace owner. */
  private async member(asUserId?: string): Promise<Actor> {
    if (asUserId === undefined) return this.workspace.ownerActor();
    const user = await this.db.selectFrom('users').select(['id', 'name']).where('id', '=', asUserId).executeTakeFirst();
    if (!user) throw invalid('asUserId', 'is not a member of this workspace');
    return { userId: user.id, label: user.name };
  }

  private async viewer(asUserId?: string): Promise<string> {
    return (await this.member(asUserId)).userId as string;
  }

  private async toSignals(db: Db, rows: SignalRow[], viewerId: string): Promise<Signal[]> {
    const reactions = await this.reactionsOf(db, rows.map((r) => r.id), viewerId);
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind as SignalKind,
      priority: r.priority as SignalPriority,
      title: r.title,
      detail: r.detail,
      sourceUrl: r.sourceUrl,
      sourceId: r.sourceId,
      sourceLabel: r.sourceLabel,
      externalId: r.externalId ?? null,
      pinned: r.pinned === 1,
      reactions: reactions.get(r.id) ?? [],
      createdAt: r.createdAt,
    }));
  }

  /** Reactions of up to 200 signals in one query (primary key prefix signal_id). */
  private async reactionsOf(db: Db, signalIds: string[], viewerId: string): Promise<Map<string, SignalReactionSummary[]>> {
    const out = new Map<string, SignalReactionSummary[]>();
    if (signalIds.length === 0) return out;
    const rows = await db
      .selectFrom('signalReactions')
      .select(['signalId', 'userId', 'emoji'])
      .where('signalId', 'in', signalIds)
      .orderBy('createdAt')
      .orderBy('userId')
      .execute();
    const grouped = new Map<string, Map<string, string[]>>();
    for (const row of rows) {
      const perSignal = grouped.get(row.signalId) ?? new Map<string, string[]>();
      grouped.set(row.signalId, perSignal);
      perSignal.set(row.emoji, [...(perSignal.get(row.emoji) ?? []), row.userId]);
    }
    for (const [signalId, perEmoji] of grouped) {
      out.set(
        signalId,
        REACTION_EMOJIS.filter((e) => perEmoji.has(e)).map((emoji) => {
          const userIds = perEmoji.get(emoji) as string[];
          return { emoji, count: userIds.length, userIds, reacted: userIds.includes(viewerId) };
        }),
      );
    }
    return out;
  }
}
