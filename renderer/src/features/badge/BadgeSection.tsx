import { useQuery } from '@tanstack/react-query';
import { ConfirmButton } from '../../components/ConfirmButton';
import { Field } from '../../components/Field';
import { FormError } from '../../components/FormError';
import { QueryState } from '../../components/Page';
import { Section } from '../../components/Section';
import { formatRelative } from '../../lib/format';
import { CopyButton } from '../ingest/WebhookUrl';
import { badgeTokenQuery, useIssueBadgeToken, useRevokeBadgeToken, useRotateBadgeToken } from './api';
import './badge.css';

/**
 * Settings > Health badge: the live badge, the Markdown to paste into a README, and the read-only
 * badge token behind it (never the workspace token): create, rotate (the old URL then shows
 * "unknown"), turn off.
 */
export function BadgeSection() {
  const token = useQuery(badgeTokenQuery());
  const issue = useIssueBadgeToken();
  const rotate = useRotateBadgeToken();
  const revoke = useRevokeBadgeToken();
  const busy = issue.isPending || rotate.isPending || revoke.isPending;
  const info = token.data;
  return (
    <Section
      id="badge"
      title="Health badge"
      description="A badge with the desk's health score for a README or a wiki. Its URL carries a read-only badge token that opens nothing but the badge, never your workspace token."
    >
      <QueryState isPending={token.isPending} error={token.error} onRetry={() => void token.refetch()} />
      <FormError error={issue.error ?? rotate.error ?? revoke.error} />
      {info && !info.issued ? (
        <div className="actions">
          <p className="muted">No badge yet: create one to get its image and Markdown.</p>
          <button type="button" className="button" disabled={busy} onClick={() => issue.mutate()}>
            Create badge
          </button>
        </div>
      ) : null}
      {info?.issued && info.badgeUrl && info.markdown ? (
        <div className="badge-setting">
          <p className="badge-setting__preview">
            <img src={info.badgeUrl} alt="Desk health badge" height={20} />
          </p>
          <Field label="Markdown" hint="Paste it into a README: the image shows the score live." className="url-field" after={<CopyButton text={info.markdown} name="badge markdown" />}>
            {(control) => <input {...control} className="input input--code" readOnly value={info.markdown ?? ''} onFocus={(e) => e.target.select()} />}
          </Field>
          <Field label="Badge URL" className="url-field" after={<CopyButton text={info.badgeUrl} name="badge url" />}>
            {(control) => <input {...control} className="input input--code" readOnly value={info.badgeUrl ?? ''} onFocus={(e) => e.target.select()} />}
          </Field>
          <p className="muted">Token created {info.issuedAt ? formatRelative(info.issuedAt) : ''}.</p>
          <div className="actions">
            <ConfirmButton
              label="Rotate token"
              question="Rotate the badge token? Badges already pasted will show “unknown” until you paste the new Markdown."
              confirmLabel="Rotate"
              disabled={busy}
              onConfirm={() => rotate.mutate()}
            />
            <ConfirmButton label="Turn off badge" question="Turn the badge off? Every pasted badge will show “unknown”." confirmLabel="Turn off" disabled={busy} onConfirm={() => revoke.mutate()} />
          </div>
        </div>
      ) : null}
    </Section>
  );
}
