import { beforeEach, describe, expect, it } from 'vitest';
import type { ActivityKind } from '../../domain/catalog/activity-kinds';
import { MAX_PENDING_INVITES } from '../../domain/members/rules';
import type { TestDesk } from '../../testing/desk';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { addMember } from '../../testing/fixtures/workspace';
import { useTestDesk } from '../../testing/use-test-desk';

/** API tests of members, invites and reviewer availability (spec: Member and invite; issue 9 part 10). */

const shared = useTestDesk();
let desk: TestDesk;
beforeEach(() => {
  desk = shared.desk;
});

async function ownerId(): Promise<string> {
  return (await desk.api('GET', '/api/v1/workspace')).body.ownerUserId;
}

async function invite(body: Record<string, unknown>) {
  const res = await desk.api('POST', '/api/v1/workspace/invites', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; email: string; role: string; invitedByUserId: string; invitedByName: string };
}

async function accept(inviteId: string, name: string) {
  const res = await desk.api('POST', `/api/v1/workspace/invites/${inviteId}/accept`, { name });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; name: string; role: string; availability: string; email: string };
}

async function events(name: string) {
  const rows = await desk.services.db.selectFrom('outboxEvents').selectAll().where('event', '=', name).orderBy('createdAt').execute();
  return rows.map((r) => JSON.parse(r.payload).data);
}

async function activity(kind: ActivityKind) {
  return desk.services.db.selectFrom('activity').selectAll().where('kind', '=', kind).orderBy('createdAt').orderBy('id').execute();
}

describe('members and invites', () => {
  it('lists the owner with role, availability, initials and hue, and no invites on a fresh desk', async () => {
    const res = await desk.api('GET', '/api/v1/workspace/members');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      members: [{ id: await ownerId(), name: 'Owner', email: null, role: 'owner', availability: 'available', initials: 'O', hue: expect.any(Number), createdAt: expect.any(String) }],
      invites: [],
    });
  });

  it('invites (editor by default, email normalised), accepts into a member, logs and emits each step', async () => {
    const inv = await invite({ email: '  Ada@Example.COM ' });
    expect(inv).toMatchObject({ id: expect.stringMatching(/^inv_/), email: 'ada@example.com', role: 'editor', invitedByUserId: await ownerId(), invitedByName: 'Owner' });
    const viewerInvite = await invite({ email: 'vic@example.com', role: 'viewer' });
    expect(viewerInvite.role).toBe('viewer');
    let list = (await desk.api('GET', '/api/v1/workspace/members')).body;
    expect(list.invites.map((i: { email: string }) => i.email)).toEqual(['ada@example.com', 'vic@example.com']);

    desk.clock.advanceMinutes(1);
    const ada = await accept(inv.id, '  Ada Lovelace ');
    expect(ada).toMatchObject({ id: expect.stringMatching(/^usr_/), name: 'Ada Lovelace', email: 'ada@example.com', role: 'editor', availability: 'available', initials: 'AL' });
    list = (await desk.api('GET', '/api/v1/workspace/members')).body;
    expect(list.members.map((m: { name: string }) => m.name)).toEqual(['Owner', 'Ada Lovelace']);
    expect(list.invites.map((i: { email: string }) => i.email)).toEqual(['vic@example.com']);
    // the invite is gone: accepting again is a 404
    await expectRejectedUnchanged(desk, { method: 'POST', path: `/api/v1/workspace/invites/${inv.id}/accept`, body: { name: 'Again' } }, { status: 404, error: 'invite_not_found' });

    expect((await activity('member.invited')).map((a) => a.detail)).toEqual(['Invited ada@example.com as editor', 'Invited vic@example.com as viewer']);
    const joined = await activity('member.joined');
    expect(joined.map((a) => [a.detail, a.actorUserId])).toEqual([['Ada Lovelace (ada@example.com) joined as editor', ada.id]]);
    expect(await events('member.invited')).toEqual([
      { inviteId: inv.id, email: 'ada@example.com', role: 'editor' },
      { inviteId: viewerInvite.id, email: 'vic@example.com', role: 'viewer' },
    ]);
    expect(await events('member.joined')).toEqual([{ userId: ada.id, name: 'Ada Lovelace', role: 'editor', inviteId: inv.id }]);

    // the new member can act: invites by an admin work, by the editor they are refused
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/workspace/invites', body: { email: 'x@example.com', asUserId: ada.id } }, { field: 'asUserId', error: 'role_not_permitted' });
  });

  it('accepts every invite role and refuses others (owner included), and bad emails, with 422 changing nothing', async () => {
    for (const role of ['admin', 'editor', 'viewer']) expect((await invite({ email: `${role}@example.com`, role })).role).toBe(role);
    for (const role of ['owner', 'Admin', '', 'superuser']) {
      await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/workspace/invites', body: { email: 'r@example.com', role } }, { field: 'role' });
    }
    for (const email of ['', 'not-an-email', 'a@b', 'a b@example.com', '@example.com', `${'a'.repeat(250)}@example.com`]) {
      await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/workspace/invites', body: { email } }, { field: 'email' });
    }
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/workspace/invites', body: { email: 'ok@example.com', asUserId: 'usr_nobody' } }, { field: 'asUserId' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/workspace/invites', body: { email: 'ok@example.com', extra: 1 } }, { status: 422 });
  });

  it('refuses a duplicate pending invite and a member email with 409, ignoring case', async () => {
    const inv = await invite({ email: 'ada@example.com' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/workspace/invites', body: { email: 'ADA@example.com', role: 'admin' } }, { status: 409, error: 'invite_exists' });
    await accept(inv.id, 'Ada');
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/workspace/invites', body: { email: 'Ada@Example.com' } }, { status: 409, error: 'member_exists' });
  });

  it(`allows ${MAX_PENDING_INVITES} pending invites and refuses the next with 409 limit_reached`, async () => {
    for (let i = 0; i < MAX_PENDING_INVITES; i++) await invite({ email: `p${i}@example.com` });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/workspace/invites', body: { email: 'one-more@example.com' } }, { status: 409, error: 'limit_reached' });
    expect((await desk.api('GET', '/api/v1/workspace/members')).body.invites).toHaveLength(MAX_PENDING_INVITES);
  });

  it('revokes a pending invite (logged, emitted); an unknown one is a 404', async () => {
    const inv = await invite({ email: 'ada@example.com' });
    const res = await desk.api('DELETE', `/api/v1/workspace/invites/${inv.id}`);
    expect(res.status).toBe(200);
    expect(res.body.email).toBe('ada@example.com');
    expect((await desk.api('GET', '/api/v1/workspace/members')).body.invites).toEqual([]);
    expect((await activity('member.invite_revoked')).map((a) => a.detail)).toEqual(['Invite for ada@example.com revoked']);
    expect(await events('member.invite_revoked')).toEqual([{ inviteId: inv.id, email: 'ada@example.com', role: 'editor' }]);
    await expectRejectedUnchanged(desk, { method: 'DELETE', path: `/api/v1/workspace/invites/${inv.id}` }, { status: 404, error: 'invite_not_found' });
    // the email can be invited again
    await invite({ email: 'ada@example.com' });
  });

  it('accept needs a name of 1-80 characters', async () => {
    const inv = await invite({ email: 'ada@example.com' });
    for (const name of ['', '   ', 'x'.repeat(81)]) {
      await expectRejectedUnchanged(desk, { method: 'POST', path: `/api/v1/workspace/invites/${inv.id}/accept`, body: { name } }, { field: 'name' });
    }
    expect((await accept(inv.id, 'x'.repeat(80))).name).toHaveLength(80);
  });
});

describe('removing members', () => {
  it('refuses to remove the owner (409), even when an admin asks; unknown ids are a 404', async () => {
    await addMember(desk, 'usr_admin', 'Alice Admin', 'admin');
    const owner = await ownerId();
    await expectRejectedUnchanged(desk, { method: 'DELETE', path: `/api/v1/workspace/members/${owner}` }, { status: 409, error: 'owner_not_removable' });
    await expectRejectedUnchanged(desk, { method: 'DELETE', path: `/api/v1/workspace/members/${owner}`, body: { asUserId: 'usr_admin' } }, { status: 409, error: 'owner_not_removable' });
    await expectRejectedUnchanged(desk, { method: 'DELETE', path: '/api/v1/workspace/members/usr_nobody' }, { status: 404, error: 'member_not_found' });
  });

  it('removes a member softly: gone from the list, refused as asUserId, still named in their past activity', async () => {
    await addMember(desk, 'usr_ed', 'Eddie Editor', 'editor');
    await addMember(desk, 'usr_admin', 'Alice Admin', 'admin');
    // Eddie saves a search before leaving
    const search = await desk.api('POST', '/api/v1/workspace/shared-saved-searches', { name: 'Bugs', query: 'bug', asUserId: 'usr_ed' });
    expect(search.status).toBe(201);
    // an editor may not remove anyone
    await expectRejectedUnchanged(desk, { method: 'DELETE', path: '/api/v1/workspace/members/usr_admin', body: { asUserId: 'usr_ed' } }, { field: 'asUserId', error: 'role_not_permitted' });

    const res = await desk.api('DELETE', '/api/v1/workspace/members/usr_ed', { asUserId: 'usr_admin' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 'usr_ed', name: 'Eddie Editor', role: 'editor' });
    expect((await desk.api('GET', '/api/v1/workspace/members')).body.members.map((m: { id: string }) => m.id)).not.toContain('usr_ed');
    const removed = await activity('member.removed');
    expect(removed.map((a) => [a.detail, a.actorUserId])).toEqual([['Eddie Editor (editor) removed', 'usr_admin']]);
    expect(await events('member.removed')).toEqual([{ userId: 'usr_ed', name: 'Eddie Editor', role: 'editor' }]);

    // a removed member can no longer act anywhere asUserId is taken (resolveActor refuses them)
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/workspace/shared-saved-searches', body: { name: 'x', query: 'y', asUserId: 'usr_ed' } }, { field: 'asUserId' });
    await expectRejectedUnchanged(desk, { method: 'DELETE', path: '/api/v1/workspace/members/usr_ed' }, { status: 404, error: 'member_not_found' });
    // their saved search keeps their name
    expect((await desk.api('GET', '/api/v1/workspace/shared-saved-searches')).body.searches[0]).toMatchObject({ createdByUserId: 'usr_ed', createdByName: 'Eddie Editor', createdByInitials: 'EE' });
  });
});

describe('reviewer availability', () => {
  it('owners and admins mark reviewers away and back; persisted, logged and emitted once per change', async () => {
    await addMember(desk, 'usr_ed', 'Eddie Editor', 'editor');
    desk.clock.advanceMinutes(1);
    await addMember(desk, 'usr_admin', 'Alice Admin', 'admin');
    const away = await desk.api('PUT', '/api/v1/workspace/members/usr_ed/availability', { availability: 'away' });
    expect(away.status).toBe(200);
    expect(away.body).toMatchObject({ id: 'usr_ed', availability: 'away' });
    // the same value again changes and logs nothing
    expect((await desk.api('PUT', '/api/v1/workspace/members/usr_ed/availability', { availability: 'away' })).status).toBe(200);
    const back = await desk.api('PUT', '/api/v1/workspace/members/usr_ed/availability', { availability: 'available', asUserId: 'usr_admin' });
    expect(back.body.availability).toBe('available');
    // an admin may mark the owner away too
    const owner = await ownerId();
    expect((await desk.api('PUT', `/api/v1/workspace/members/${owner}/availability`, { availability: 'away', asUserId: 'usr_admin' })).status).toBe(200);
    const members = (await desk.api('GET', '/api/v1/workspace/members')).body.members;
    expect(members.map((m: { id: string; availability: string }) => [m.id, m.availability])).toEqual([
      [owner, 'away'],
      ['usr_ed', 'available'],
      ['usr_admin', 'available'],
    ]);
    expect((await activity('member.availability')).map((a) => [a.detail, a.actorUserId])).toEqual([
      ['Eddie Editor marked away as reviewer', owner],
      ['Eddie Editor marked available as reviewer', 'usr_admin'],
      ['Owner marked away as reviewer', 'usr_admin'],
    ]);
    expect(await events('member.availability_changed')).toEqual([
      { userId: 'usr_ed', name: 'Eddie Editor', role: 'editor', availability: 'away', previousAvailability: 'available' },
      { userId: 'usr_ed', name: 'Eddie Editor', role: 'editor', availability: 'available', previousAvailability: 'away' },
      { userId: owner, name: 'Owner', role: 'owner', availability: 'away', previousAvailability: 'available' },
    ]);
  });

  it('refuses editors and viewers as actors (422 role_not_permitted), viewers as targets (409), bad values (422), unknown members (404)', async () => {
    await addMember(desk, 'usr_ed', 'Eddie Editor', 'editor');
    await addMember(desk, 'usr_view', 'Vera Viewer', 'viewer');
    const path = '/api/v1/workspace/members/usr_ed/availability';
    await expectRejectedUnchanged(desk, { method: 'PUT', path, body: { availability: 'away', asUserId: 'usr_ed' } }, { field: 'asUserId', error: 'role_not_permitted' });
    await expectRejectedUnchanged(desk, { method: 'PUT', path, body: { availability: 'away', asUserId: 'usr_view' } }, { field: 'asUserId', error: 'role_not_permitted' });
    await expectRejectedUnchanged(desk, { method: 'PUT', path, body: { availability: 'busy' } }, { field: 'availability' });
    await expectRejectedUnchanged(desk, { method: 'PUT', path, body: {} }, { status: 422 });
    await expectRejectedUnchanged(desk, { method: 'PUT', path: '/api/v1/workspace/members/usr_view/availability', body: { availability: 'away' } }, { status: 409, error: 'not_a_reviewer' });
    await expectRejectedUnchanged(desk, { method: 'PUT', path: '/api/v1/workspace/members/usr_nobody/availability', body: { availability: 'away' } }, { status: 404, error: 'member_not_found' });
  });
});
