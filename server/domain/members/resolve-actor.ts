import { compiledOnce } from '../../../db/compiled';
import type { Db } from '../../../db/connection';
import { invalid } from '../../core/errors';
import type { Actor } from '../activity/activity';
import type { MemberRole } from './rules';

/** An actor that is a member (never the desk itself): its userId is set. */
export type MemberActor = Actor & { userId: string; role: MemberRole };

/** The owner and their name: read by every change made through the API, so compiled once. */
const ownerOf = compiledOnce((db) => db.selectFrom('workspace').innerJoin('users', 'users.id', 'workspace.ownerUserId').select(['users.id', 'users.name', 'users.role']));

/**
 * The member a request acts as: `asUserId` when given (it must be a member; 422 naming the field
 * otherwise), else the workspace owner. Every endpoint that takes `asUserId` resolves it here, and
 * the actor it returns is the one its activity rows name. A removed member is no member: 422 too.
 * Safe inside a transaction (reads join it).
 */
export async function resolveActor(db: Db, asUserId?: string, field = 'asUserId'): Promise<MemberActor> {
  if (asUserId === undefined) {
    const [owner] = await ownerOf(db);
    if (owner === undefined) throw new Error('The workspace has no owner (it is not created yet)');
    return { userId: owner.id, label: owner.name, role: owner.role };
  }
  const user = await db.selectFrom('users').select(['id', 'name', 'role']).where('id', '=', asUserId).where('removedAt', 'is', null).executeTakeFirst();
  if (!user) throw invalid(field, 'is not a member of this workspace');
  return { userId: user.id, label: user.name, role: user.role };
}
