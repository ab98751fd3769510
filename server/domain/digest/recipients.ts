import { DateTime } from 'luxon';
import type { Db } from '../../../db/connection';
import { invalid } from '../../core/errors';
import { readStoredPrefsOf, type StoredPrefs } from '../dashboard-prefs/prefs-store';
import type { DigestSection } from '../dashboard-prefs/rules';
import { roleNotPermitted, type MemberRole } from '../members/rules';
import { readWorkspace } from '../workspace/workspace-store';
import { DIGEST_ROLES, gateRecipient, type GatingDecision } from './rules';

/**
 * Who receives the digest and at which address: every current owner and admin. The owner's digest
 * goes to the workspace's digestEmail when one is set (the address the operator chose for the
 * digest), else to the owner's own email; an admin's goes to the admin's email. A recipient with
 * no address is muted (`no_address`).
 */
export interface DigestRecipient {
  userId: string;
  name: string;
  role: MemberRole;
  /** Where their digest goes, or null when there is no address. */
  address: string | null;
  /** digest_email: the workspace digestEmail; member_email: the member's own email; null: no address. */
  addressSource: 'digest_email' | 'member_email' | null;
}

/** A recipient with the digest preferences gating reads. */
export interface RecipientWithPrefs extends DigestRecipient {
  prefs: StoredPrefs;
}

export async function readRecipients(db: Db): Promise<RecipientWithPrefs[]> {
  const ws = await readWorkspace(db);
  const users = await db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'role', 'createdAt'])
    .where('removedAt', 'is', null)
    .where('role', 'in', [...DIGEST_ROLES])
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
  users.sort((a, b) => Number(b.role === 'owner') - Number(a.role === 'owner'));
  const prefs = await readStoredPrefsOf(
    db,
    users.map((u) => u.id),
  );
  return users.map((u) => {
    const digestEmail = u.role === 'owner' ? ws.digestEmail : null;
    const address = digestEmail ?? u.email ?? null;
    return {
      userId: u.id,
      name: u.name,
      role: u.role,
      address,
      addressSource: digestEmail ? 'digest_email' : u.email ? 'member_email' : null,
      prefs: prefs.get(u.id)!,
    };
  });
}

/** The recipient a preview names: a member (422 `userId` otherwise) who is an owner or admin (422 `role_not_permitted`). Default: the owner. */
export async function readRecipient(db: Db, userId: string | undefined): Promise<RecipientWithPrefs> {
  const all = await readRecipients(db);
  if (userId === undefined) return all.find((r) => r.role === 'owner')!;
  const found = all.find((r) => r.userId === userId);
  if (found) return found;
  const member = await db.selectFrom('users').select(['role']).where('id', '=', userId).where('removedAt', 'is', null).executeTakeFirst();
  if (!member) throw invalid('userId', 'is not a member of this workspace');
  throw roleNotPermitted('userId', member.role, 'the digest goes to owners and admins only');
}

/** The preferences gating and the address, at a workspace-local instant: what production would decide for this recipient. */
export function gateWithAddress(r: { address: string | null; prefs: StoredPrefs }, at: Date, timezone: string): GatingDecision {
  const decision = gateRecipient(r.prefs, DateTime.fromJSDate(at, { zone: timezone }));
  if (decision.outcome === 'would_send' && r.address === null) {
    return { outcome: 'muted', reason: 'no_address', detail: 'Muted: no address (set the member email, or the workspace digestEmail for the owner)' };
  }
  return decision;
}

/** The digest fields of a recipient's preferences, as digest-config shows them. */
export interface RecipientDigestPrefs {
  digestQuietWeekends: boolean;
  /** @isInt */
  digestQuietHoursStart: number | null;
  /** @isInt */
  digestQuietHoursEnd: number | null;
  digestPersonalSections: DigestSection[];
}

export const digestPrefsOf = (p: StoredPrefs): RecipientDigestPrefs => ({
  digestQuietWeekends: p.digestQuietWeekends,
  digestQuietHoursStart: p.digestQuietHoursStart,
  digestQuietHoursEnd: p.digestQuietHoursEnd,
  digestPersonalSections: p.digestPersonalSections,
});

