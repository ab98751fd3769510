import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { LIMITS } from '../../api/rules.gen';
import { Field } from '../../components/Field';
import { FormError, fieldError } from '../../components/FormError';
import { SubmitActions } from '../../components/SubmitActions';
import { TokenList } from '../../components/TokenList';
import { ingestTokensQuery, useCreateIngestToken, useRevokeIngestToken, type CreatedIngestUrl } from './api';
import { WebhookUrl } from './WebhookUrl';

/** Why a scoped URL, in one line (shown wherever one is offered). */
export const SCOPED_URL_WHY = 'A leaked source URL can only push signals to that source; revoke it any time.';

/**
 * A source's scoped ingest URLs: create one (its URL is shown once, with a copy button), list the
 * active ones (label, hint, last use) and revoke. Offered before the workspace webhook URL.
 */
export function ScopedIngestUrls({ sourceId, sourceLabel }: { sourceId: string; sourceLabel: string }) {
  const tokens = useQuery(ingestTokensQuery(sourceId));
  const create = useCreateIngestToken();
  const revoke = useRevokeIngestToken();
  const [label, setLabel] = useState('');
  const [created, setCreated] = useState<CreatedIngestUrl | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(
      { sourceId, label: label.trim() || undefined },
      {
        onSuccess: (made) => {
          setCreated(made);
          setLabel('');
        },
      },
    );
  };
  const list = tokens.data?.ingestTokens ?? [];
  return (
    <div className="scoped-urls" role="group" aria-label={`Ingest URLs for ${sourceLabel}`}>
      <p className="muted small">{SCOPED_URL_WHY}</p>
      {created && created.sourceId === sourceId ? (
        <div className="scoped-urls__created">
          <WebhookUrl label="New ingest URL" name="new ingest URL" url={created.webhookUrl} secret={false} hint="Shown once: copy it now. Desk keeps only a hash of its token." />
        </div>
      ) : null}
      <form className="inline-form" onSubmit={submit} noValidate>
        <Field
          label="Used by"
          hint={`The service that will send to it, to tell URLs apart; ${sourceLabel} when left empty.`}
          error={fieldError(create.error, 'label')}
          after={<SubmitActions mutation={create} label="Create ingest URL" secondary />}
        >
          {(control) => <input {...control} className="input" value={label} maxLength={LIMITS.CreateIngestTokenBody.label.maxLength} onChange={(e) => setLabel(e.target.value)} />}
        </Field>
        <FormError error={create.error} fields={['label']} />
      </form>
      {list.length > 0 ? (
        <TokenList
          tokens={list}
          name="Active ingest URLs"
          revokeQuestion={(t) => `Revoke ${t.label}? Its URL stops working at once.`}
          revoking={revoke.isPending}
          onRevoke={(t) => {
            if (created?.id === t.id) setCreated(null);
            revoke.mutate({ tokenId: t.id, sourceId });
          }}
        />
      ) : tokens.isSuccess ? (
        <p className="muted small">No ingest URL for this source yet.</p>
      ) : null}
      <FormError error={revoke.error ?? tokens.error} />
    </div>
  );
}
