import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Field } from '../../components/Field';
import { FormError, fieldError } from '../../components/FormError';
import { QueryState } from '../../components/Page';
import { Section, SettingRow } from '../../components/Section';
import { SubmitActions } from '../../components/SubmitActions';
import { formatDateTime, formatRelative } from '../../lib/format';
import { useDraft } from '../../lib/use-draft';
import { Badge } from '../../components/Badge';
import { ConfirmButton } from '../../components/ConfirmButton';
import { SuccessNotice } from '../../components/SuccessNotice';
import { sourceOptionsQuery } from '../sources/api';
import { inboundQuery, useRotateToken, useSetRelay, type RelayStatus } from './api';
import { ScopedIngestUrls, SCOPED_URL_WHY } from '../ingest/ScopedIngestUrls';
import { relayStateBadge } from './format';
import { WebhookUrl } from '../ingest/WebhookUrl';
import { McpAssistants } from './McpAssistants';
import './integrations.css';

function RelayDetails({ relay }: { relay: RelayStatus }) {
  const badge = relayStateBadge(relay.state);
  const at = (iso: string | null) => (iso ? <time dateTime={iso} title={formatDateTime(iso, true)}>{formatRelative(iso)}</time> : <span className="muted">—</span>);
  return (
    <div className="relay-status">
      <div className="relay-status__state">
        <Badge tone={badge.tone}>{badge.text}</Badge>
        <span className="muted small">
          {relay.state === 'disabled'
            ? 'No relay channel is set.'
            : relay.source === 'env'
              ? 'Channel from DESK_RELAY_URL.'
              : 'Channel set in the workspace.'}
        </span>
      </div>
      {relay.state !== 'disabled' ? (
        <dl className="facts">
          <div>
            <dt>{relay.state === 'connected' ? 'Connected since' : 'Last connected'}</dt>
            <dd>{at(relay.connectedAt)}</dd>
          </div>
          <div>
            <dt>Last event</dt>
            <dd>{at(relay.lastEventAt)}</dd>
          </div>
          <div>
            <dt>Delivered</dt>
            <dd>
              {relay.deliveredCount}
              {relay.failedCount ? <span className="text-danger"> · {relay.failedCount} failed</span> : null}
            </dd>
          </div>
          <div>
            <dt>Last delivery</dt>
            <dd>
              {at(relay.lastDeliveryAt)}
              {relay.lastDeliveryStatus !== null ? <span className="muted"> · HTTP {relay.lastDeliveryStatus}</span> : null}
            </dd>
          </div>
          {relay.reconnectAttempts ? (
            <div>
              <dt>Reconnects</dt>
              <dd>
                {relay.reconnectAttempts}
                {relay.nextReconnectAt ? <span className="muted"> · next {formatRelative(relay.nextReconnectAt)}</span> : null}
              </dd>
            </div>
          ) : null}
        </dl>
      ) : null}
      {relay.lastError ? (
        <p className="form-error" role="alert">
          Last error{relay.lastErrorAt ? ` (${formatRelative(relay.lastErrorAt)})` : ''}: {relay.lastError}
        </p>
      ) : null}
    </div>
  );
}

function RelayChannel({ relay }: { relay: RelayStatus }) {
  const save = useSetRelay();
  const stored = relay.source === 'workspace' ? relay.channelUrl : null;
  const [value, setValue] = useDraft(stored, (v) => v ?? '');
  const [localError, setLocalError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const url = value.trim();
    setLocalError(url ? null : 'Enter a channel URL, or use Remove');
    if (url) save.mutate({ relayUrl: url });
  };
  return (
    <form className="inline-form" onSubmit={submit} noValidate>
      <Field
        label="Relay channel URL"
        hint={
          relay.source === 'env' ? (
            <>DESK_RELAY_URL sets {relay.channelUrl}; a channel saved here takes its place.</>
          ) : (
            <>
              A smee channel, e.g. a new one from <a href="https://smee.io/new" target="_blank" rel="noopener noreferrer">smee.io/new</a>, or your own smee server.
            </>
          )
        }
        error={localError ?? fieldError(save.error, 'relayUrl')}
        after={
          <SubmitActions
            mutation={save}
            clear={
              stored
                ? {
                    label: 'Remove',
                    onClick: () => {
                      setLocalError(null);
                      save.mutate({ relayUrl: null });
                    },
                  }
                : null
            }
          />
        }
      >
        {(control) => (
          <input {...control} className="input input--code" type="url" value={value} placeholder="https://smee.io/your-channel" spellCheck={false} onChange={(e) => setValue(e.target.value)} />
        )}
      </Field>
      <FormError error={save.error} fields={['relayUrl']} />
    </form>
  );
}

/** Pick a source, then its scoped ingest URLs. */
function ScopedUrlPicker() {
  const sources = useQuery(sourceOptionsQuery());
  const [picked, setPicked] = useState('');
  const list = sources.data ?? [];
  const source = list.find((s) => s.id === picked) ?? null;
  if (sources.isSuccess && list.length === 0) {
    return <p className="muted small">Add a source first (a manual source for the sending service is the usual choice), then create its ingest URL here or in its editor on the Sources page.</p>;
  }
  return (
    <div className="stack stack--tight">
      <Field label="Source">
        {(control) => (
          <select {...control} className="input" value={picked} onChange={(e) => setPicked(e.target.value)}>
            <option value="">Choose a source…</option>
            {list.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      {source ? <ScopedIngestUrls key={source.id} sourceId={source.id} sourceLabel={source.label} /> : null}
      <FormError error={sources.error} />
    </div>
  );
}

/** Rotate the workspace token: confirm what breaks, then show the new webhook URL; the UI stays signed in. */
function RotateToken() {
  const rotate = useRotateToken();
  return (
    <div className="stack stack--tight">
      <ConfirmButton
        label="Rotate token"
        small={false}
        question="Rotate the workspace token? The old token and the webhook URL above stop working at once: scripts, senders and other signed-in tabs that use them must be given the new ones. Scoped ingest URLs and the relay keep working."
        confirmLabel="Rotate now"
        disabled={rotate.isPending}
        onConfirm={() => rotate.mutate()}
      />
      {rotate.isSuccess ? <SuccessNotice message="Token rotated. The new webhook URL is shown above; this window is signed in with the new token." /> : null}
      <FormError error={rotate.error} />
    </div>
  );
}

/** Settings > Integrations: the inbound webhook (local and relayed) and the relay that carries it past NAT. */
export function IntegrationsSection() {
  const inbound = useQuery(inboundQuery());
  const data = inbound.data;
  return (
    <Section id="integrations" title="Integrations" description="Push signals in from scripts and other services through the inbound webhook.">
      <QueryState isPending={inbound.isPending} error={inbound.error} onRetry={() => void inbound.refetch()} />
      {data ? (
        <>
          <SettingRow
            title="Source ingest URLs (recommended)"
            description={`Give each sending service a URL of its own source: it can only push signals, and they are filed under that source. ${SCOPED_URL_WHY}`}
          >
            <ScopedUrlPicker />
          </SettingRow>
          <SettingRow
            title="Workspace webhook URL"
            description="POST a signal as JSON (a title, and optionally detail, kind, priority, sourceUrl and sourceId) from a script on this machine, to any source. The URL contains the workspace token, which also signs in to the whole API: treat it as an admin key, and prefer a source ingest URL above."
          >
            <WebhookUrl label="Local webhook URL" name="local webhook" url={data.inboundWebhook.localUrl} secret hint="Reachable from this machine only." />
          </SettingRow>
          <SettingRow
            title="Workspace token"
            description="If the token or the workspace webhook URL may have leaked, rotate it: a new token replaces it at once."
          >
            <RotateToken />
          </SettingRow>
          <SettingRow
            title="Relayed webhook"
            description="The desk usually sits behind NAT. Senders outside this machine post to a public relay channel instead; the relay forwards each request to the local webhook, and only there."
          >
            {data.inboundWebhook.relayedUrl ? (
              <WebhookUrl
                label="Relayed webhook URL"
                name="relayed webhook"
                url={data.inboundWebhook.relayedUrl}
                secret={false}
                hint="Anyone who knows this URL can add signals: share it only with the services that need it."
              />
            ) : (
              <p className="muted small">No relay channel yet: set one below to receive signals from outside.</p>
            )}
          </SettingRow>
          <SettingRow title="Relay" description="Connection state of the relay client, and what it delivered.">
            <RelayDetails relay={data.relay} />
            <RelayChannel relay={data.relay} />
          </SettingRow>
          <SettingRow
            title="AI assistants (MCP)"
            description="Let Claude Desktop, Cursor, VS Code or any Model Context Protocol client ask what waits for you, file signals and notes, and decide outputs when you say so. Each assistant gets an MCP token of its own (never the workspace token); every tool call it makes is in the activity log."
          >
            <McpAssistants />
          </SettingRow>
        </>
      ) : null}
    </Section>
  );
}
