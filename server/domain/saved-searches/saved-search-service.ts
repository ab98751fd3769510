import type { Db } from '../../../db/connection';
import { inTransaction } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { conflict, invalid } from '../../core/errors';
import { newId } from '../../core/ids';
import { recordActivity } from '../activity/activity';
import { emit } from '../events/outbox';
import { hueOf, initialsOf } from '../members/rules';
import { resolveActor } from '../members/resolve-actor';
import { checkSavedSearch, MAX_SHARED_SAVED_SEARCHES } from './rules';

/** A search saved for the whole team, with who saved it. */
export interface SharedSavedSearch {
  id: string;
  name: string;
  query: string;
  createdByUserId: string;
  /** The member who saved it (a removed member keeps their name here). */
  createdByName: string;
  createdByInitials: string;
  /** @isInt */
  createdByHue: number;
  /** @format date-time */
  createdAt: string;
}

type Row = { id: string; name: string; query: string; createdByUserId: string; createdByName: string; createdAt: string };
const toView = (r: Row): SharedSavedSearch => ({ ...r, createdByInitials: initialsOf(r.createdByName), createdByHue: hueOf(r.createdByUserId) });

/** Shared saved searches: at most 30 per workspace. */
export class SavedSearchService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Every shared saved search (at most 30), newest first. */
  async list(): Promise<SharedSavedSearch[]> {
    const rows = await this.query(this.db).orderBy('s.createdAt', 'desc').orderBy('s.id', 'desc').limit(MAX_SHARED_SAVED_SEARCHES).execute();
    return rows.map(toView);
  }

  /** 409 `limit_reached` at 30. */
  async create(input: { name: unknown; query: unknown; asUserId?: string }): Promise<SharedSavedSearch> {
    const { name, query } = checkSavedSearch(input);
    return inTransaction(this.db, async (trx) => {
      const actor = await resolveActor(trx, input.asUserId);
      const count = await trx.selectFrom('sharedSavedSearches').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      if (Number(count.n) >= MAX_SHARED_SAVED_SEARCHES) throw conflict('limit_reached', `The workspace already has ${MAX_SHARED_SAVED_SEARCHES} shared saved searches: remove one first`);
      const row = { id: newId('srch', this.clock), name, query, createdByUserId: actor.userId, createdAt: this.clock.now().toISOString() };
      await trx.insertInto('sharedSavedSearches').values(row).execute();
      await recordActivity(trx, this.clock, { kind: 'saved_search.created', detail: `Shared search saved: ${name} (${query})`, actor, entityType: 'saved_search', entityId: row.id });
      await emit(trx, this.clock, 'saved_search.created', { searchId: row.id, name, query, createdByUserId: actor.userId });
      return toView({ ...row, createdByName: actor.label });
    });
  }

  /** Removes one; an unknown `searchId` (named in the body, not the URL) is a 422 naming it. */
  async remove(input: { searchId: string; asUserId?: string }): Promise<SharedSavedSearch> {
    return inTransaction(this.db, async (trx) => {
      const row = await this.query(trx).where('s.id', '=', input.searchId).executeTakeFirst();
      if (!row) throw invalid('searchId', 'is not a shared saved search of this workspace');
      const actor = await resolveActor(trx, input.asUserId);
      await trx.deleteFrom('sharedSavedSearches').where('id', '=', row.id).execute();
      await recordActivity(trx, this.clock, { kind: 'saved_search.deleted', detail: `Shared search removed: ${row.name}`, actor, entityType: 'saved_search', entityId: row.id });
      await emit(trx, this.clock, 'saved_search.deleted', { searchId: row.id, name: row.name, query: row.query, createdByUserId: row.createdByUserId });
      return toView(row);
    });
  }

  private query(db: Db) {
    return db
      .selectFrom('sharedSavedSearches as s')
      .innerJoin('users as u', 'u.id', 's.createdByUserId')
      .select(['s.id', 's.name', 's.query', 's.createdByUserId', 'u.name as createdByName', 's.createdAt']);
  }
}
