import { Body, Controller, Delete, Get, Path, Post, Put, Response, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import type { Invite, Member, MembersAndInvites } from '../../domain/members/member-service';
import type { InviteRole, ReviewAvailability } from '../../domain/members/rules';

import type { Services } from '../../services';

export interface InviteBody {
  /**
   * The teammate's email address (trimmed, lowercased). No email is sent: the invite is a record.
   * @example "ada@example.com"
   */
  email: string;
  /** The role the invite gives; `editor` when left out. */
  role?: InviteRole;
  /** The member who invites (an owner or admin); the owner when left out. */
  asUserId?: string;
}

export interface AcceptInviteBody {
  /**
   * The new member's display name (trimmed).
   * @example "Ada Lovelace"
   */
  name: string;
}

export interface ActingMemberBody {
  /** The member who acts (an owner or admin); the owner when left out. */
  asUserId?: string;
}

export interface AvailabilityBody {
  availability: ReviewAvailability;
  /** The member who sets it (an owner or admin); the owner when left out. */
  asUserId?: string;
}

/**
 * Members and invites. Members are the people the operator works with; they do not log in (the
 * workspace token acts, `asUserId` says on whose behalf). Managing members (inviting, revoking,
 * removing) and setting reviewer availability need an acting owner or admin: any other `asUserId`
 * is a 422 `role_not_permitted` naming `asUserId` (there is no login, so no 403).
 */
@Route('api/v1/workspace')
@Tags('Members')
@Security('bearer')
export class MembersController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * Current members (the owner first, then by when they joined; at most 100) with role, reviewer
   * availability, initials and an avatar hue, and the pending invites (oldest first; at most 50).
   * Removed members are not listed.
   */
  @Get('members')
  public async listMembers(): Promise<MembersAndInvites> {
    return this.s.members.list();
  }

  /**
   * Invites a teammate with a role (`editor` when left out). There is no email sending yet: the
   * invite is a record, listed under `invites` until it is accepted (POST
   * /workspace/invites/{inviteId}/accept) or revoked. Logged as `member.invited`, emitting
   * `member.invited`.
   */
  @Post('invites')
  @SuccessResponse(201, 'Created')
  @Response<ErrorBody>('409', '`member_exists` (a member has this email), `invite_exists` (a pending invite has it) or `limit_reached` (50 pending invites); nothing was created')
  @Response<ErrorBody>('422', 'email is not an address, role is not admin, editor or viewer, asUserId is not a member, or `role_not_permitted` (asUserId is not an owner or admin)')
  public async createInvite(@Body() body: InviteBody): Promise<Invite> {
    const invite = await this.s.members.invite(body);
    this.setStatus(201);
    return invite;
  }

  /**
   * Accepts a pending invite on the invitee's behalf (members do not log in): the invitee becomes
   * a member with the invite's email and role and the given name, and the invite goes. This is how
   * the operator adds a teammate end to end: invite, then accept. Logged as `member.joined` (by the
   * new member), emitting `member.joined`.
   */
  @Post('invites/{inviteId}/accept')
  @SuccessResponse(201, 'Created')
  @Response<ErrorBody>('404', '`invite_not_found` (unknown, revoked or already accepted)')
  @Response<ErrorBody>('409', '`limit_reached`: the workspace has 100 members')
  @Response<ErrorBody>('422', 'name out of bounds')
  public async acceptInvite(@Path() inviteId: string, @Body() body: AcceptInviteBody): Promise<Member> {
    const member = await this.s.members.acceptInvite(inviteId, body);
    this.setStatus(201);
    return member;
  }

  /** Revokes a pending invite, logged as `member.invite_revoked`, emitting that event. */
  @Delete('invites/{inviteId}')
  @Response<ErrorBody>('404', '`invite_not_found`')
  @Response<ErrorBody>('422', '`role_not_permitted` or asUserId is not a member')
  public async revokeInvite(@Path() inviteId: string, @Body() body?: ActingMemberBody): Promise<Invite> {
    return this.s.members.revokeInvite(inviteId, body?.asUserId);
  }

  /**
   * Removes a member: they are no longer listed and can no longer act (`asUserId` naming them is a
   * 422), while past activity, reactions and saved searches keep their name. The owner cannot be
   * removed. Logged as `member.removed`, emitting that event.
   */
  @Delete('members/{userId}')
  @Response<ErrorBody>('404', '`member_not_found` (unknown or already removed)')
  @Response<ErrorBody>('409', '`owner_not_removable`: the workspace owner cannot be removed')
  @Response<ErrorBody>('422', '`role_not_permitted` or asUserId is not a member')
  public async removeMember(@Path() userId: string, @Body() body?: ActingMemberBody): Promise<Member> {
    return this.s.members.remove(userId, body?.asUserId);
  }

  /**
   * Marks a reviewer available or away (new members are available). Only owners and admins may set
   * it (the spec's role rule; the acting member is asUserId, else the owner); owners, admins and
   * editors are reviewers, viewers are not (409 `not_a_reviewer`). Persisted, logged as
   * `member.availability` and emitting `member.availability_changed`; setting the current value
   * changes and logs nothing.
   */
  @Put('members/{userId}/availability')
  @Response<ErrorBody>('404', '`member_not_found`')
  @Response<ErrorBody>('409', '`not_a_reviewer`: the member is a viewer')
  @Response<ErrorBody>('422', 'availability is not available or away, asUserId is not a member, or `role_not_permitted`')
  public async setMemberAvailability(@Path() userId: string, @Body() body: AvailabilityBody): Promise<Member> {
    return this.s.members.setAvailability(userId, body);
  }
}
