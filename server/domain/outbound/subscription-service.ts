import type { Db } from '../../../db/connection';
import { inTransaction, type Trx } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { conflict, invalid, notFound } from '../../core/errors';
import { newId } from '../../core/ids';
import { checkIdList } from '../../core/input';
import type { Actor } from '../activity/activity';
import { resolveActor } from '../members/resolve-actor';
import type { EventName } from '../catalog/events';
import {
  checkBulkAction,
  checkEventNames,
  checkSubscriptionLabel,
  checkSubscriptionUrl,
  MAX_SUBSCRIPTIONS,
  type OutboundBulkAction,
} from './rules';
import { newSigningSecret, secretHint } from './signing';
import {
  deleteSubscription,
  eventsOf,
  insertSubscription,
  logSubscriptionChange,
  nameOf,
  replaceSubscriptionEvents,
  toView,
  updateSubscription,
  type OutboundSubscription,
  type SubscriptionRow,
} from './subscription-store';

export interface CreateSubscriptionInput {
  url: unknown;
  events: unknown;
  label?: unknown;
}

export interface PatchSubscriptionInput {
  active?: unknown;
  events?: unknown;
}

/** The answer to creating a subscription: the only time the secret is shown. */
export interface CreatedOutboundSubscription extends OutboundSubscription {
  /** The signing secret (`whsec_<base64>`), for the receiver's Standard Webhooks library. Shown once: store it now. */
  secret: string;
}

export interface OutboundBulkResult {
  action: OutboundBulkAction;
  /** How many subscriptions the action changed. @isInt */
  affected: number;
  changed: string[];
  /** Already in the asked state (pause of a paused one, resume of an active one). */
  unchanged: string[];
  /** Ids that matched no subscription; the action applied to the others. */
  notFound: string[];
}

/**
 * Subscriptions: create (the secret shown once), pause/resume/edit events, delete, bulk. Each
 * change writes one activity row and one `outbound.subscription_*` event in its transaction.
 * Pausing keeps already queued deliveries (sent on resume) and queues no new ones; resuming a
 * subscription Desk disabled clears the reason and the failing streak.
 */
export class SubscriptionService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async list(): Promise<OutboundSubscription[]> {
    const rows = await this.db.selectFrom('outboundSubscriptions').selectAll().orderBy('createdAt').orderBy('id').execute();
    return Promise.all(rows.map((r) => toView(this.db, r)));
  }

  async get(id: string): Promise<OutboundSubscription> {
    return toView(this.db, await this.row(this.db, id));
  }

  async create(input: CreateSubscriptionInput): Promise<CreatedOutboundSubscription> {
    const url = checkSubscriptionUrl(input.url);
    const events = checkEventNames(input.events);
    const label = checkSubscriptionLabel(input.label);
    return inTransaction(this.db, async (trx) => {
      const count = await trx.selectFrom('outboundSubscriptions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      if (Number(count.n) >= MAX_SUBSCRIPTIONS) throw conflict('limit_reached', `A workspace has at most ${MAX_SUBSCRIPTIONS} webhook subscriptions: delete one first`);
      const actor = await resolveActor(trx);
      const now = this.clock.now().toISOString();
      const secret = newSigningSecret();
      const row: SubscriptionRow = {
        id: newId('whk', this.clock),
        url,
        label,
        secret,
        secretHint: secretHint(secret),
        active: 1,
        disabledReason: null,
        disabledAt: null,
        failingSince: null,
        createdAt: now,
        updatedAt: now,
      };
      await insertSubscription(trx, row, events);
      await logSubscriptionChange(trx, this.clock, actor, 'outbound.subscription_created', row, events, `Webhook subscription ${nameOf(row)} created for ${events.length} event${events.length === 1 ? '' : 's'}`);
      return { ...(await toView(trx, row)), secret };
    });
  }

  /** PATCH { active?, events? }: at least one of them (422 otherwise). No change, no log. */
  async patch(id: string, input: PatchSubscriptionInput): Promise<OutboundSubscription> {
    if (input.active === undefined && input.events === undefined) throw invalid('active', 'or events is required');
    if (input.active !== undefined && typeof input.active !== 'boolean') throw invalid('active', 'must be true or false');
    const events = input.events === undefined ? undefined : checkEventNames(input.events);
    return inTransaction(this.db, async (trx) => {
      const row = await this.row(trx, id);
      const actor = await resolveActor(trx);
      const changed = await this.apply(trx, actor, row, { active: input.active as boolean | undefined, events });
      return toView(trx, changed ?? row);
    });
  }

  async remove(id: string): Promise<OutboundSubscription> {
    return inTransaction(this.db, async (trx) => {
      const row = await this.row(trx, id);
      const view = await toView(trx, row);
      const actor = await resolveActor(trx);
      await this.delete(trx, actor, row);
      return view;
    });
  }

  /** POST /outbound/subscriptions/bulk under the kit's bulk policy (1-50 ids, unknown ones in notFound). */
  async bulk(input: { action: unknown; subscriptionIds: unknown }): Promise<OutboundBulkResult> {
    const action = checkBulkAction(input.action);
    const ids = checkIdList(input.subscriptionIds, 'subscriptionIds');
    return inTransaction(this.db, async (trx) => {
      const actor = await resolveActor(trx);
      const rows = await trx.selectFrom('outboundSubscriptions').selectAll().where('id', 'in', ids).execute();
      const byId = new Map(rows.map((r) => [r.id, r]));
      const result: OutboundBulkResult = { action, affected: 0, changed: [], unchanged: [], notFound: ids.filter((id) => !byId.has(id)) };
      for (const id of ids) {
        const row = byId.get(id);
        if (!row) continue;
        if (action === 'delete') {
          await this.delete(trx, actor, row);
          result.changed.push(id);
          continue;
        }
        const changed = await this.apply(trx, actor, row, { active: action === 'resume' });
        (changed ? result.changed : result.unchanged).push(id);
      }
      result.affected = result.changed.length;
      return result;
    });
  }

  /** Applies a pause/resume and/or a new event set; the changed row, or null when nothing changed. */
  private async apply(trx: Trx, actor: Actor, row: SubscriptionRow, change: { active?: boolean; events?: EventName[] }): Promise<SubscriptionRow | null> {
    const before = await eventsOf(trx, row.id);
    const eventsChanged = change.events !== undefined && [...change.events].sort().join(',') !== before.join(',');
    const resume = change.active === true && (row.active === 0 || row.disabledReason !== null);
    const pause = change.active === false && row.active === 1;
    if (!eventsChanged && !resume && !pause) return null;
    const now = this.clock.now().toISOString();
    const next: SubscriptionRow = {
      ...row,
      active: resume ? 1 : pause ? 0 : row.active,
      disabledReason: resume ? null : row.disabledReason,
      disabledAt: resume ? null : row.disabledAt,
      failingSince: resume ? null : row.failingSince,
      updatedAt: now,
    };
    await updateSubscription(trx, row.id, { active: next.active, disabledReason: next.disabledReason, disabledAt: next.disabledAt, failingSince: next.failingSince, updatedAt: now });
    const events = eventsChanged && change.events ? change.events : before;
    if (eventsChanged) await replaceSubscriptionEvents(trx, row.id, events);
    const what = [resume ? (row.disabledReason ? `resumed (was disabled: ${row.disabledReason})` : 'resumed') : pause ? 'paused' : null, eventsChanged ? `now receives ${events.length} event${events.length === 1 ? '' : 's'}` : null]
      .filter(Boolean)
      .join(', ');
    await logSubscriptionChange(trx, this.clock, actor, 'outbound.subscription_updated', next, events, `Webhook subscription ${nameOf(row)} ${what}`);
    return next;
  }

  /** Deletes a subscription with its deliveries and their log (cascade). */
  private async delete(trx: Trx, actor: Actor, row: SubscriptionRow): Promise<void> {
    const events = await eventsOf(trx, row.id);
    await deleteSubscription(trx, row.id);
    await logSubscriptionChange(trx, this.clock, actor, 'outbound.subscription_deleted', row, events, `Webhook subscription ${nameOf(row)} deleted`);
  }

  private async row(db: Db, id: string): Promise<SubscriptionRow> {
    const row = await db.selectFrom('outboundSubscriptions').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('outbound_subscription', id);
    return row;
  }
}
