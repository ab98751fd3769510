import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Field } from '../../components/Field';
import { FormError, fieldError } from '../../components/FormError';
import { QueryState } from '../../components/Page';
import { Section, SettingRow } from '../../components/Section';
import { SubmitActions } from '../../components/SubmitActions';
import { formatDateTime, formatRelative } from '../../lib/format';
import { useDraft } from '../../lib/use-draft';
import { Badge } from '../../components/Badge';
import { inboundQuery, useSetRelay, type RelayStatus } from './api';
import { curlExample, maskToken, relayStateBadge } from './format';
import './integrations.css';

/** Copies text; falls back to the old selection API where the async clipboard is not allowed. */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

function CopyButton({ text, label = 'Copy', name }: { text: string; label?: string; name: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2500);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <>
      <button type="button" className="button button--secondary" aria-label={`${label} ${name}`} onClick={() => void copyText(text).then((ok) => setState(ok ? 'copied' : 'failed'))}>
        {label}
      </button>
      <span className={`save-status${state === 'copied' ? ' save-status--done' : ''}`} role="status" aria-live="polite">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed: select the text and copy it by hand' : ''}
      </span>
    </>
  );
}

/** A webhook URL with its copy button and a curl example; a secret one is shown masked until revealed. */
function WebhookUrl({ label, name, url, secret, hint }: { label: string; name: string; url: string; secret: boolean; hint?: ReactNode }) {
  const [revealed, setRevealed] = useState(!secret);
  const shown = revealed ? url : maskToken(url);
  return (
    <>
      <Field
        label={label}
        hint={hint}
        className="url-field"
        after={
          <>
            {secret ? (
              <button type="button" className="button button--ghost" aria-pressed={revealed} onClick={() => setRevealed((v) => !v)}>
                {revealed ? 'Hide' : 'Show'}
              </button>
            ) : null}
            <CopyButton text={url} name={label.toLowerCase()} />
          </>
        }
      >
        {(control) => <input {...control} className="input input--code" readOnly value={shown} onFocus={(e) => revealed && e.target.select()} />}
      </Field>
      <div className="code-example">
        <pre className="code-block" aria-label={`curl example (${name})`}>
          <code>{curlExample(shown)}</code>
        </pre>
        <div className="actions">
          <CopyButton text={curlExample(url)} label="Copy command" name={name} />
        </div>
      </div>
    </>
  );
}

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
            title="Inbound webhook"
            description="POST a signal as JSON (a title, and optionally detail, kind, priority and sourceUrl) from a script on this machine. The URL contains your ingest token, which also signs in to the API: treat it as a secret."
          >
            <WebhookUrl label="Local webhook URL" name="local webhook" url={data.inboundWebhook.localUrl} secret hint="Reachable from this machine only." />
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
        </>
      ) : null}
    </Section>
  );
}
