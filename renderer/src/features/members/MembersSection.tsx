import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { INVITE_ROLE, LIMITS } from '../../api/rules.gen';
import { ConfirmButton } from '../../components/ConfirmButton';
import { Field } from '../../components/Field';
import { FormError, fieldError } from '../../components/FormError';
import { QueryState } from '../../components/Page';
import { Section } from '../../components/Section';
import { SubmitActions } from '../../components/SubmitActions';
import { formatDateTime } from '../../lib/format';
import { membersQuery, useAcceptInvite, useInvite, useRemoveMember, useRevokeInvite, useSetAvailability, type Invite, type InviteRole, type Member } from './api';
import './members.css';

const ROLE_LABEL: Record<Member['role'], string> = { owner: 'Owner', admin: 'Admin', editor: 'Editor', viewer: 'Viewer' };

function Avatar({ member }: { member: Pick<Member, 'initials' | 'hue'> }) {
  return (
    <span className="avatar" aria-hidden="true" style={{ background: `hsl(${member.hue} 55% 45%)` }}>
      {member.initials}
    </span>
  );
}

function MemberRow({ member }: { member: Member }) {
  const availability = useSetAvailability();
  const remove = useRemoveMember();
  const reviewer = member.role !== 'viewer';
  return (
    <li className="members__item" aria-label={member.name}>
      <Avatar member={member} />
      <span className="members__who">
        <strong>{member.name}</strong>
        <span className="muted small">{member.email ?? 'no email'}</span>
      </span>
      <span className={`badge members__role members__role--${member.role}`}>{ROLE_LABEL[member.role]}</span>
      {reviewer ? (
        <label className="members__availability">
          <input
            type="checkbox"
            role="switch"
            checked={member.availability === 'available'}
            disabled={availability.isPending}
            aria-label={`${member.name} available to review`}
            onChange={(e) => availability.mutate({ userId: member.id, availability: e.target.checked ? 'available' : 'away' })}
          />
          <span>{member.availability === 'available' ? 'Available' : 'Away'}</span>
        </label>
      ) : (
        <span className="muted small members__availability">Not a reviewer</span>
      )}
      {member.role === 'owner' ? (
        <span className="muted small members__actions">Cannot be removed</span>
      ) : (
        <span className="members__actions">
          <ConfirmButton
            label="Remove"
            question={`Remove ${member.name}? Their past activity keeps their name.`}
            confirmLabel="Remove"
            disabled={remove.isPending}
            onConfirm={() => remove.mutate(member.id)}
          />
        </span>
      )}
      <FormError error={availability.error ?? remove.error} />
    </li>
  );
}

function InviteRow({ invite }: { invite: Invite }) {
  const accept = useAcceptInvite();
  const revoke = useRevokeInvite();
  const [name, setName] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    accept.mutate({ inviteId: invite.id, name: name.trim() });
  };
  return (
    <li className="members__item members__item--invite" aria-label={`Invite for ${invite.email}`}>
      <span className="members__who">
        <strong>{invite.email}</strong>
        <span className="muted small">
          {ROLE_LABEL[invite.role]} · invited by {invite.invitedByName} {formatDateTime(invite.createdAt)}
        </span>
      </span>
      <form className="inline-form members__accept" onSubmit={submit} noValidate>
        <Field label={`Name for ${invite.email}`} error={fieldError(accept.error, 'name')} after={<SubmitActions mutation={accept} label="Accept" secondary />}>
          {(control) => <input {...control} className="input" value={name} maxLength={LIMITS.AcceptInviteBody.name.maxLength} placeholder="Their name" onChange={(e) => setName(e.target.value)} />}
        </Field>
        <FormError error={accept.error} fields={['name']} />
      </form>
      <span className="members__actions">
        <ConfirmButton label="Revoke" question={`Revoke the invite for ${invite.email}?`} confirmLabel="Revoke" disabled={revoke.isPending} onConfirm={() => revoke.mutate(invite.id)} />
      </span>
      <FormError error={revoke.error} />
    </li>
  );
}

function InviteForm() {
  const invite = useInvite();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<InviteRole>('editor');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    invite.mutate({ email: email.trim(), role }, { onSuccess: () => setEmail('') });
  };
  return (
    <form className="inline-form members__invite" onSubmit={submit} noValidate aria-label="Invite a teammate">
      <Field label="Email" error={fieldError(invite.error, 'email')}>
        {(control) => <input {...control} type="email" className="input" value={email} maxLength={LIMITS.InviteBody.email.maxLength} onChange={(e) => setEmail(e.target.value)} />}
      </Field>
      <Field label="Role" error={fieldError(invite.error, 'role')} after={<SubmitActions mutation={invite} label="Invite" />}>
        {(control) => (
          <select {...control} className="input" value={role} onChange={(e) => setRole(e.target.value as InviteRole)}>
            {INVITE_ROLE.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABEL[r]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <FormError error={invite.error} fields={['email', 'role']} />
    </form>
  );
}

/**
 * Settings > Members: members with their role and reviewer availability (a switch; the owner cannot
 * be removed), pending invites (accept on the teammate's behalf, or revoke) and the invite form.
 */
export function MembersSection() {
  const list = useQuery(membersQuery());
  return (
    <Section
      id="members"
      title="Members"
      description="The people you work with. They do not sign in: invites are records (no email is sent yet); accept one with the teammate's name to add them. Reviewers marked away get no reviews routed to them."
    >
      <InviteForm />
      <QueryState isPending={list.isPending} error={list.error} onRetry={() => void list.refetch()} />
      {list.data ? (
        <>
          <ul className="members__list" aria-label="Members">
            {list.data.members.map((m) => (
              <MemberRow key={m.id} member={m} />
            ))}
          </ul>
          <h3 className="setting__title">Pending invites</h3>
          {list.data.invites.length > 0 ? (
            <ul className="members__list" aria-label="Pending invites">
              {list.data.invites.map((i) => (
                <InviteRow key={i.id} invite={i} />
              ))}
            </ul>
          ) : (
            <p className="muted small">No pending invites.</p>
          )}
        </>
      ) : null}
    </Section>
  );
}
