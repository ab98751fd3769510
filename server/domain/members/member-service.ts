import type { Db } from '../../../db/connection';
import { inTransaction, type Trx } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { conflict, notFound } from '../../core/errors';
import { newId } from '../../core/ids';
import { recordActivity } from '../activity/activity';
import { emit } from '../events/outbox';
import { deleteInvite, insertInvite, insertUsers, updateUser } from './member-store';
import { resolveActor } from './resolve-actor';
import {
  checkAvailability,
  checkInviteRole,
  checkMemberName,
  hueOf,
  initialsOf,
  MAX_MEMBERS,
  MAX_PENDING_INVITES,
  normaliseInviteEmail,
  requireManager,
  REVIEWER_ROLES,
  type InviteRole,
  type MemberRole,
  type ReviewAvailability,
} from './rules';

/** A member as lists show them. */
export interface Member {
  id: string;
  name: string;
  email: string | null;
  role: MemberRole;
  /** Reviewer availability; viewers are not reviewers and stay `available`. */
  availability: ReviewAvailability;
  /** Up to two letters for an avatar. */
  initials: string;
  /** A stable avatar hue, 0-359. @isInt */
  hue: number;
  /** @format date-time */
  createdAt: string;
}

/** A pending invite (a record: no email is sent). */
export interface Invite {
  id: string;
  /** Lowercased. */
  email: string;
  role: InviteRole;
  invitedByUserId: string;
  invitedByName: string;
  /** @format date-time */
  createdAt: string;
}

export interface MembersAndInvites {
  /** Current members, the owner first, then by when they joined. */
  members: Member[];
  /** Pending invites, oldest first. */
  invites: Invite[];
}

type UserRow = { id: string; name: string; email: string | null; role: MemberRole; availability: ReviewAvailability; createdAt: string };
const USER_COLUMNS = ['id', 'name', 'email', 'role', 'availability', 'createdAt'] as const;
const toMember = (u: UserRow): Member => ({ ...u, initials: initialsOf(u.name), hue: hueOf(u.id) });

/** Members and invites: list, invite, accept, revoke, remove, reviewer availability. */
export class MemberService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async list(): Promise<MembersAndInvites> {
    const users = await this.db
      .selectFrom('users')
      .select(USER_COLUMNS)
      .where('removedAt', 'is', null)
      .orderBy('createdAt')
      .orderBy('id')
      .limit(MAX_MEMBERS + 1)
      .execute();
    const owner = users.filter((u) => u.role === 'owner');
    const members = [...owner, ...users.filter((u) => u.role !== 'owner')].map(toMember);
    const invites = await this.invites(this.db);
    return { members, invites };
  }

  /**
   * Invites a teammate by email with a role (editor unless given), logged as `member.invited` and
   * emitting that event. The acting member must be an owner or admin (422 `role_not_permitted`).
   * 409 `member_exists` for a member's email, `invite_exists` for a pending one, `limit_reached` at
   * MAX_PENDING_INVITES pending invites.
   */
  async invite(input: { email: string; role?: string; asUserId?: string }): Promise<Invite> {
    const email = normaliseInviteEmail(input.email);
    const role = checkInviteRole(input.role);
    return inTransaction(this.db, async (trx) => {
      const actor = await resolveActor(trx, input.asUserId);
      requireManager(actor.role, 'invite teammates');
      const member = await trx.selectFrom('users').select('id').where('removedAt', 'is', null).where((eb) => eb(eb.fn('lower', ['email']), '=', email)).executeTakeFirst();
      if (member) throw conflict('member_exists', `${email} is already a member`);
      const pending = await trx.selectFrom('invites').select('id').where((eb) => eb(eb.fn('lower', ['email']), '=', email)).executeTakeFirst();
      if (pending) throw conflict('invite_exists', `${email} already has a pending invite`);
      const count = await trx.selectFrom('invites').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      if (Number(count.n) >= MAX_PENDING_INVITES) throw conflict('limit_reached', `There are already ${MAX_PENDING_INVITES} pending invites: revoke one first`);
      const row = { id: newId('inv', this.clock), email, role, invitedByUserId: actor.userId, createdAt: this.clock.now().toISOString() };
      await insertInvite(trx, row);
      await recordActivity(trx, this.clock, { kind: 'member.invited', detail: `Invited ${email} as ${role}`, actor, entityType: 'invite', entityId: row.id });
      await emit(trx, this.clock, 'member.invited', { inviteId: row.id, email, role });
      return { ...row, invitedByName: actor.label };
    });
  }

  /** Revokes a pending invite (the row goes), logged as `member.invite_revoked`. 404 `invite_not_found`. */
  async revokeInvite(inviteId: string, asUserId?: string): Promise<Invite> {
    return inTransaction(this.db, async (trx) => {
      const invite = (await this.invites(trx, inviteId))[0];
      if (!invite) throw notFound('invite', inviteId);
      const actor = await resolveActor(trx, asUserId);
      requireManager(actor.role, 'revoke invites');
      await deleteInvite(trx, inviteId);
      await recordActivity(trx, this.clock, { kind: 'member.invite_revoked', detail: `Invite for ${invite.email} revoked`, actor, entityType: 'invite', entityId: inviteId });
      await emit(trx, this.clock, 'member.invite_revoked', { inviteId, email: invite.email, role: invite.role });
      return invite;
    });
  }

  /**
   * Accepts a pending invite on the invitee's behalf (members do not log in): a new member with the
   * invite's email and role and the given name; the invite goes. Logged as `member.joined` with the
   * new member as actor. 404 `invite_not_found`; 409 `limit_reached` at MAX_MEMBERS members.
   */
  async acceptInvite(inviteId: string, input: { name: string }): Promise<Member> {
    const name = checkMemberName(input.name);
    return inTransaction(this.db, async (trx) => {
      const invite = (await this.invites(trx, inviteId))[0];
      if (!invite) throw notFound('invite', inviteId);
      const count = await trx.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('removedAt', 'is', null).executeTakeFirstOrThrow();
      if (Number(count.n) >= MAX_MEMBERS) throw conflict('limit_reached', `The workspace already has ${MAX_MEMBERS} members: remove one first`);
      const row: UserRow = { id: newId('usr', this.clock), name, email: invite.email, role: invite.role, availability: 'available', createdAt: this.clock.now().toISOString() };
      await insertUsers(trx, [row]);
      await deleteInvite(trx, inviteId);
      await recordActivity(trx, this.clock, {
        kind: 'member.joined',
        detail: `${name} (${invite.email}) joined as ${invite.role}`,
        actor: { userId: row.id, label: name },
        entityType: 'user',
        entityId: row.id,
      });
      await emit(trx, this.clock, 'member.joined', { userId: row.id, name, role: row.role, inviteId });
      return toMember(row);
    });
  }

  /**
   * Removes a member (soft: the row stays so past activity, reactions and saved searches keep the
   * name; the member is no longer listed and can no longer act). Logged as `member.removed`.
   * 404 `member_not_found` (unknown or already removed), 409 `owner_not_removable`.
   */
  async remove(userId: string, asUserId?: string): Promise<Member> {
    return inTransaction(this.db, async (trx) => {
      const actor = await resolveActor(trx, asUserId);
      requireManager(actor.role, 'remove members');
      const user = await this.member(trx, userId);
      if (user.role === 'owner') throw conflict('owner_not_removable', 'The workspace owner cannot be removed');
      await updateUser(trx, userId, { removedAt: this.clock.now().toISOString() });
      await recordActivity(trx, this.clock, { kind: 'member.removed', detail: `${user.name} (${user.role}) removed`, actor, entityType: 'user', entityId: userId });
      await emit(trx, this.clock, 'member.removed', { userId, name: user.name, role: user.role });
      return toMember(user);
    });
  }

  /**
   * Marks a reviewer available or away, logged as `member.availability` and emitting
   * `member.availability_changed`. Only owners and admins may (422 `role_not_permitted` naming
   * asUserId); viewers are not reviewers (409 `not_a_reviewer`). Setting the current value changes
   * nothing and logs nothing.
   */
  async setAvailability(userId: string, input: { availability: string; asUserId?: string }): Promise<Member> {
    const availability = checkAvailability(input.availability);
    return inTransaction(this.db, async (trx) => {
      const actor = await resolveActor(trx, input.asUserId);
      requireManager(actor.role, 'set reviewer availability');
      const user = await this.member(trx, userId);
      if (!REVIEWER_ROLES.includes(user.role)) throw conflict('not_a_reviewer', `${user.name} is a viewer: only owners, admins and editors review`);
      if (user.availability === availability) return toMember(user);
      await updateUser(trx, userId, { availability });
      await recordActivity(trx, this.clock, { kind: 'member.availability', detail: `${user.name} marked ${availability} as reviewer`, actor, entityType: 'user', entityId: userId });
      await emit(trx, this.clock, 'member.availability_changed', { userId, name: user.name, role: user.role, availability, previousAvailability: user.availability });
      return toMember({ ...user, availability });
    });
  }

  private async member(trx: Trx, userId: string): Promise<UserRow> {
    const user = await trx.selectFrom('users').select(USER_COLUMNS).where('id', '=', userId).where('removedAt', 'is', null).executeTakeFirst();
    if (!user) throw notFound('member', userId);
    return user;
  }

  private async invites(db: Db | Trx, id?: string): Promise<Invite[]> {
    let q = db
      .selectFrom('invites')
      .innerJoin('users', 'users.id', 'invites.invitedByUserId')
      .select(['invites.id', 'invites.email', 'invites.role', 'invites.invitedByUserId', 'users.name as invitedByName', 'invites.createdAt'])
      .orderBy('invites.createdAt')
      .orderBy('invites.id');
    if (id !== undefined) q = q.where('invites.id', '=', id);
    return q.limit(MAX_PENDING_INVITES).execute();
  }
}
