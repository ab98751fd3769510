import { DeskError, invalid } from '../../core/errors';
import { checkEmail, MAX_EMAIL_LENGTH } from '../../core/input';
import { type MemberRole, MEMBER_ROLES, type InviteRole, INVITE_ROLES, type ReviewAvailability, REVIEW_AVAILABILITIES } from '../../core/vocabulary';
export { type MemberRole, MEMBER_ROLES, type InviteRole, INVITE_ROLES, type ReviewAvailability, REVIEW_AVAILABILITIES };

/**
 * Pure rules of members and invites. Members are the people the operator works with; they do not
 * log in (the workspace token acts, `asUserId` says on whose behalf). An invite is a record: no
 * email is sent; the operator accepts it on the invitee's behalf (POST /workspace/invites/{id}/accept
 * with the invitee's name), which makes the invitee a member with the invited role.
 */

/** An invite without a role makes an editor: able to work on tasks, not to manage members. */
export const DEFAULT_INVITE_ROLE: InviteRole = 'editor';
/** Roles that manage members (invite, revoke, remove) and set reviewer availability (spec: owners and admins). */
export const MANAGING_ROLES: readonly MemberRole[] = ['owner', 'admin'];
/** Roles that decide on outputs and so can be reviewers (available or away); viewers only read. */
export const REVIEWER_ROLES: readonly MemberRole[] = ['owner', 'admin', 'editor'];

/** Members (the owner included, removed ones not) per workspace. */
export const MAX_MEMBERS = 100;
/** Pending invites per workspace. */
export const MAX_PENDING_INVITES = 50;
export const MAX_MEMBER_NAME_LENGTH = 80;
export { MAX_EMAIL_LENGTH };

/** The email of an invite, trimmed and lowercased; 422 naming `email` unless it is an address. */
export function normaliseInviteEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  checkEmail('email', email);
  return email;
}

export function checkInviteRole(role: string | undefined): InviteRole {
  if (role === undefined) return DEFAULT_INVITE_ROLE;
  if (!(INVITE_ROLES as readonly string[]).includes(role)) throw invalid('role', `must be one of ${INVITE_ROLES.join(', ')}`);
  return role as InviteRole;
}

export function checkAvailability(value: string): ReviewAvailability {
  if (!(REVIEW_AVAILABILITIES as readonly string[]).includes(value)) throw invalid('availability', `must be one of ${REVIEW_AVAILABILITIES.join(', ')}`);
  return value as ReviewAvailability;
}

/** A member's display name: trimmed, 1-80 characters. */
export function checkMemberName(raw: string): string {
  const name = raw.trim();
  if (name.length < 1 || name.length > MAX_MEMBER_NAME_LENGTH) throw invalid('name', `must be 1-${MAX_MEMBER_NAME_LENGTH} characters and not only spaces`);
  return name;
}

/**
 * 422 `role_not_permitted` naming `asUserId` unless the acting member's role may do this: the
 * request is fixed by acting as an owner or admin (the status policy's 422; there is no login, so
 * no 403).
 */
export function requireManager(role: MemberRole, what: string): void {
  if (!MANAGING_ROLES.includes(role)) throw roleNotPermitted('asUserId', role, `only owners and admins may ${what}`);
}

/**
 * The one shape of 422 `role_not_permitted`: the member named by `field` has a role that may not
 * do this; `rule` says who may ("only owners and admins may invite teammates").
 */
export function roleNotPermitted(field: string, role: MemberRole, rule: string): DeskError {
  const sentence = `${rule.charAt(0).toUpperCase()}${rule.slice(1)}`;
  return new DeskError(422, 'role_not_permitted', `${sentence}; ${field} is a ${role}`, [{ field, message: `is a ${role}; ${rule}` }]);
}

/** Up to two initials of a name: "Ada Lovelace" -> "AL", "ada" -> "A". */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = (words.length > 1 ? [words[0], words[words.length - 1]] : words).map((w) => [...w][0]?.toUpperCase() ?? '');
  return letters.join('') || '?';
}

/** A stable hue (0-359) for a member's avatar, from the id. */
export function hueOf(id: string): number {
  let h = 0;
  for (const ch of id) h = (h * 31 + ch.codePointAt(0)!) % 360;
  return h;
}
