import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Schema } from '../../api/client';
import { json, noFake, fakeFetch } from '../../testing/fake-api';
import { renderWithApp } from '../../testing/render';
import { MembersSection } from './MembersSection';

type Member = Schema<'Member'>;
type Invite = Schema<'Invite'>;

const owner: Member = { id: 'usr_owner', name: 'Olive Owner', email: null, role: 'owner', availability: 'available', initials: 'OO', hue: 10, createdAt: '2026-03-01T12:00:00.000Z' };
const editor: Member = { id: 'usr_ed', name: 'Eddie Editor', email: 'ed@example.com', role: 'editor', availability: 'available', initials: 'EE', hue: 200, createdAt: '2026-03-02T12:00:00.000Z' };
const viewer: Member = { id: 'usr_vi', name: 'Vera Viewer', email: 'vi@example.com', role: 'viewer', availability: 'available', initials: 'VV', hue: 300, createdAt: '2026-03-03T12:00:00.000Z' };

/** A stateful members API, answering like the server (its 409 and 422 included). */
function fakeMembers(initialMembers: Member[], initialInvites: Invite[] = []) {
  let members = [...initialMembers];
  let invites = [...initialInvites];
  return fakeFetch((call) => {
    const { method, path, body } = call;
    if (method === 'GET' && path === '/api/v1/workspace/members') return json(200, { members, invites });
    if (method === 'POST' && path === '/api/v1/workspace/invites') {
      const { email, role = 'editor' } = body as { email: string; role?: Invite['role'] };
      if (!email.includes('@')) return json(422, { error: 'validation_failed', message: 'email must be an email address', details: [{ field: 'email', message: 'must be an email address' }] });
      if (invites.some((i) => i.email === email)) return json(409, { error: 'invite_exists', message: `${email} already has a pending invite` });
      const invite: Invite = { id: `inv_${invites.length + 1}`, email, role, invitedByUserId: owner.id, invitedByName: owner.name, createdAt: '2026-03-10T12:00:00.000Z' };
      invites = [...invites, invite];
      return json(201, invite);
    }
    const accept = path.match(/^\/api\/v1\/workspace\/invites\/([^/]+)\/accept$/);
    if (method === 'POST' && accept) {
      const invite = invites.find((i) => i.id === accept[1])!;
      const member: Member = { id: `usr_${accept[1]}`, name: (body as { name: string }).name, email: invite.email, role: invite.role, availability: 'available', initials: 'NM', hue: 1, createdAt: '2026-03-10T12:00:00.000Z' };
      invites = invites.filter((i) => i.id !== invite.id);
      members = [...members, member];
      return json(201, member);
    }
    const inv = path.match(/^\/api\/v1\/workspace\/invites\/([^/]+)$/);
    if (method === 'DELETE' && inv) {
      const invite = invites.find((i) => i.id === inv[1])!;
      invites = invites.filter((i) => i.id !== inv[1]);
      return json(200, invite);
    }
    const availability = path.match(/^\/api\/v1\/workspace\/members\/([^/]+)\/availability$/);
    if (method === 'PUT' && availability) {
      members = members.map((m) => (m.id === availability[1] ? { ...m, availability: (body as { availability: Member['availability'] }).availability } : m));
      return json(200, members.find((m) => m.id === availability[1]));
    }
    const member = path.match(/^\/api\/v1\/workspace\/members\/([^/]+)$/);
    if (method === 'DELETE' && member) {
      const gone = members.find((m) => m.id === member[1])!;
      members = members.filter((m) => m.id !== member[1]);
      return json(200, gone);
    }
    if (method === 'GET' && path === '/api/v1/activity') return json(200, { activities: [], nextCursor: null });
    return noFake(call);
  });
}


const memberList = () => screen.getByRole('list', { name: 'Members' });
const row = (name: string) => within(memberList()).getByRole('listitem', { name });

describe('Settings > Members', () => {
  it('lists members with role and availability; the owner has no remove button; viewers are not reviewers', async () => {
    fakeMembers([owner, editor, viewer]);
    renderWithApp(<MembersSection />);
    await screen.findByRole('list', { name: 'Members' });
    expect(within(memberList()).getAllByRole('listitem').map((li) => li.getAttribute('aria-label'))).toEqual(['Olive Owner', 'Eddie Editor', 'Vera Viewer']);
    expect(within(row('Olive Owner')).getByText('Owner')).toBeTruthy();
    expect(within(row('Olive Owner')).queryByRole('button', { name: 'Remove' })).toBeNull();
    expect(within(row('Olive Owner')).getByText('Cannot be removed')).toBeTruthy();
    expect(within(row('Eddie Editor')).getByRole('button', { name: 'Remove' })).toBeTruthy();
    expect((within(row('Eddie Editor')).getByRole('switch', { name: 'Eddie Editor available to review' }) as HTMLInputElement).checked).toBe(true);
    expect(within(row('Vera Viewer')).queryByRole('switch')).toBeNull();
    expect(within(row('Vera Viewer')).getByText('Not a reviewer')).toBeTruthy();
    expect(screen.getByText('No pending invites.')).toBeTruthy();
  });

  it('marks a reviewer away and back through the API', async () => {
    const desk = fakeMembers([owner, editor]);
    renderWithApp(<MembersSection />);
    await screen.findByRole('list', { name: 'Members' });
    fireEvent.click(within(row('Eddie Editor')).getByRole('switch'));
    await waitFor(() => expect(within(row('Eddie Editor')).getByText('Away')).toBeTruthy());
    expect((within(row('Eddie Editor')).getByRole('switch') as HTMLInputElement).checked).toBe(false);
    expect(desk.calls.filter((c) => c.method === 'PUT').map((c) => [c.path, c.body])).toEqual([['/api/v1/workspace/members/usr_ed/availability', { availability: 'away' }]]);
    fireEvent.click(within(row('Eddie Editor')).getByRole('switch'));
    await waitFor(() => expect(within(row('Eddie Editor')).getByText('Available')).toBeTruthy());
  });

  it('invites with a chosen role, shows a refused email next to the field and a duplicate as an alert', async () => {
    const desk = fakeMembers([owner]);
    renderWithApp(<MembersSection />);
    await screen.findByRole('list', { name: 'Members' });
    const email = screen.getByLabelText('Email');
    fireEvent.change(email, { target: { value: 'nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Invite' }));
    expect((await screen.findByText('must be an email address')).closest('.field')).toBeTruthy();
    fireEvent.change(email, { target: { value: 'ada@example.com' } });
    fireEvent.change(screen.getByLabelText('Role'), { target: { value: 'admin' } });
    fireEvent.click(screen.getByRole('button', { name: 'Invite' }));
    const invites = await screen.findByRole('list', { name: 'Pending invites' });
    expect(within(invites).getByText('ada@example.com')).toBeTruthy();
    expect(within(invites).getByText(/Admin · invited by Olive Owner/)).toBeTruthy();
    expect(desk.calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({ email: 'ada@example.com', role: 'admin' });
    await waitFor(() => expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe(''));
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Invite' }));
    expect((await screen.findByRole('alert')).textContent).toBe('ada@example.com already has a pending invite');
  });

  it('accepts an invite with a name (the teammate becomes a member) and revokes another after confirming', async () => {
    const pending = (id: string, email: string): Invite => ({ id, email, role: 'editor', invitedByUserId: owner.id, invitedByName: owner.name, createdAt: '2026-03-10T12:00:00.000Z' });
    fakeMembers([owner], [pending('inv_a', 'ada@example.com'), pending('inv_b', 'bob@example.com')]);
    renderWithApp(<MembersSection />);
    const invites = await screen.findByRole('list', { name: 'Pending invites' });
    const ada = within(invites).getByRole('listitem', { name: 'Invite for ada@example.com' });
    fireEvent.change(within(ada).getByLabelText('Name for ada@example.com'), { target: { value: 'Ada Lovelace' } });
    fireEvent.click(within(ada).getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(within(memberList()).getAllByRole('listitem').map((li) => li.getAttribute('aria-label'))).toEqual(['Olive Owner', 'Ada Lovelace']));
    const bob = within(screen.getByRole('list', { name: 'Pending invites' })).getByRole('listitem', { name: 'Invite for bob@example.com' });
    fireEvent.click(within(bob).getByRole('button', { name: 'Revoke' }));
    fireEvent.click(within(within(bob).getByRole('group')).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('No pending invites.')).toBeTruthy();
  });

  it('removes a member only after confirming', async () => {
    const desk = fakeMembers([owner, editor]);
    renderWithApp(<MembersSection />);
    await screen.findByRole('list', { name: 'Members' });
    fireEvent.click(within(row('Eddie Editor')).getByRole('button', { name: 'Remove' }));
    expect(desk.calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
    fireEvent.click(within(within(row('Eddie Editor')).getByRole('group')).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(within(memberList()).getAllByRole('listitem')).toHaveLength(1));
    expect(desk.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/v1/workspace/members/usr_ed']);
  });
});
