import type { Insertable, Updateable } from 'kysely';
import type { InviteTable, UserTable } from '../../../db/schema';
import type { Trx } from '../../../db/transactions';

/** The one writer of the users and invites tables (members and pending invites). */

export async function insertUsers(trx: Trx, rows: Insertable<UserTable>[]): Promise<void> {
  await trx.insertInto('users').values(rows).execute();
}

/** Sets columns of one member (removal is soft: removedAt). */
export async function updateUser(trx: Trx, id: string, change: Updateable<UserTable>): Promise<void> {
  await trx.updateTable('users').set(change).where('id', '=', id).execute();
}

export async function insertInvite(trx: Trx, row: Insertable<InviteTable>): Promise<void> {
  await trx.insertInto('invites').values(row).execute();
}

export async function deleteInvite(trx: Trx, id: string): Promise<void> {
  await trx.deleteFrom('invites').where('id', '=', id).execute();
}
