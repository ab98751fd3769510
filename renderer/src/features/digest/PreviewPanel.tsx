import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Badge } from '../../components/Badge';
import { FormError } from '../../components/FormError';
import { Segmented } from '../../components/Segmented';
import { previewQuery, useSendPreview, type DigestConfig, type DigestPreviewSent, type SimulatedDate } from './api';
import { REASON_LABELS } from './format';

/** What a finished "Send me a preview now" did, in words. */
export function sentMessage(s: DigestPreviewSent): { tone: 'success' | 'warning' | 'danger'; text: string } {
  if (s.outcome === 'muted') return { tone: 'warning', text: `Nothing sent: ${s.detail}. Your preferences decide, as they do for the daily digest.` };
  if (s.delivery === 'failed') return { tone: 'danger', text: `Not delivered: the SMTP server refused it (${s.error ?? 'no reason given'}).` };
  if (s.delivery === 'outbox') return { tone: 'success', text: `“${s.subject}” written to the outbox folder of the desk’s data folder for ${s.recipient.address} (no SMTP server is set).` };
  return { tone: 'success', text: `“${s.subject}” sent to ${s.recipient.address}.` };
}

/**
 * Exactly what a recipient would get at the simulated instant (or now): the subject, the address, the
 * gating decision, and the email itself (HTML in a sandboxed frame, or its plain-text alternative).
 * "Send me a preview now" sends the signed-in member's digest at once (bypassing the daily gate, not
 * their own preferences).
 */
export function PreviewPanel({ config, simulatedDate, me }: { config: DigestConfig; simulatedDate: SimulatedDate; me: string }) {
  const [userId, setUserId] = useState<string>(me);
  const [view, setView] = useState<'html' | 'text'>('html');
  const q = useQuery(previewQuery(userId || null, simulatedDate));
  const send = useSendPreview();
  const p = q.data;
  const result = send.data ? sentMessage(send.data) : null;
  return (
    <div className="digest-preview">
      <div className="digest-preview__bar">
        <label className="digest-preview__who">
          <span className="field__label">Preview for</span>
          <select className="input input--select" aria-label="Preview for" value={userId} onChange={(e) => setUserId(e.target.value)}>
            {config.recipients.map((r) => (
              <option key={r.userId} value={r.userId}>
                {r.name} ({r.role})
              </option>
            ))}
          </select>
        </label>
        <Segmented
          label="Preview format"
          value={view}
          options={[
            { value: 'html', label: 'Email' },
            { value: 'text', label: 'Plain text' },
          ]}
          onChange={setView}
        />
        <div className="digest-preview__send">
          <button type="button" className="button" disabled={send.isPending} aria-busy={send.isPending} onClick={() => send.mutate(me || null)}>
            {send.isPending ? 'Sending…' : 'Send me a preview now'}
          </button>
        </div>
      </div>
      {result ? (
        <p className={`notice notice--${result.tone === 'success' ? 'success' : 'info'} digest-preview__result`} role="status">
          <span>{result.text}</span>
        </p>
      ) : null}
      <FormError error={send.error} />
      <FormError error={q.error} fields={['simulatedDate']} />
      {q.isPending ? <p className="muted small">Rendering the preview…</p> : null}
      {p ? (
        <div className="digest-mail" aria-busy={q.isFetching}>
          <dl className="digest-mail__head">
            <div>
              <dt>Subject</dt>
              <dd className="digest-mail__subject">{p.subject}</dd>
            </div>
            <div>
              <dt>To</dt>
              <dd>
                {p.recipient.name} {p.recipient.address ? <span className="muted">&lt;{p.recipient.address}&gt;</span> : <span className="muted">(no address)</span>}
              </dd>
            </div>
            <div>
              <dt>At</dt>
              <dd>
                {p.gating.localTime}
                {p.gating.simulated ? <span className="muted"> (simulated)</span> : null}{' '}
                <Badge tone={p.gating.outcome === 'would_send' ? 'success' : 'warning'}>{REASON_LABELS[p.gating.reason] ?? p.gating.reason}</Badge>
                <span className="muted small digest-decision">{p.gating.detail}</span>
              </dd>
            </div>
          </dl>
          {view === 'html' ? (
            // An empty sandbox: the email's HTML can run no script, submit nothing and reach nothing of the app.
            <iframe className="digest-mail__frame" title={`Digest preview for ${p.recipient.name}`} sandbox="" srcDoc={p.html} />
          ) : (
            <pre className="digest-mail__text" aria-label={`Plain-text digest for ${p.recipient.name}`}>
              {p.text}
            </pre>
          )}
        </div>
      ) : null}
    </div>
  );
}
