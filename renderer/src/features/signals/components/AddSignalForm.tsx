import { useState, type FormEvent } from 'react';
import { Field } from '../../../components/Field';
import { FormError, fieldError } from '../../../components/FormError';
import { LIMITS, SIGNAL_KIND, SIGNAL_PRIORITY } from '../../../api/rules.gen';
import { useCreateSignal, type SignalKind, type SignalPriority } from '../api';

const FIELDS = ['kind', 'priority', 'title', 'detail', 'sourceUrl'];

/** A signal written by hand: a note, something heard on a call, a link worth the desk's attention. */
export function AddSignalForm({ onDone }: { onDone: (title: string) => void }) {
  const create = useCreateSignal();
  const [kind, setKind] = useState<SignalKind>('note');
  const [priority, setPriority] = useState<SignalPriority>('normal');
  const [title, setTitle] = useState('');
  const [detail, setDetail] = useState('');
  const [url, setUrl] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ kind, priority, title: title.trim(), detail: detail.trim(), sourceUrl: url.trim() || null }, { onSuccess: (s) => onDone(s.title) });
  };
  return (
    <form className="add-signal" onSubmit={submit} noValidate aria-label="Add a signal">
      <div className="add-signal__row">
        <Field label="Kind" error={fieldError(create.error, 'kind')}>
          {(control) => (
            <select {...control} className="input input--select" value={kind} onChange={(e) => setKind(e.target.value as SignalKind)}>
              {SIGNAL_KIND.map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Priority" error={fieldError(create.error, 'priority')}>
          {(control) => (
            <select {...control} className="input input--select" value={priority} onChange={(e) => setPriority(e.target.value as SignalPriority)}>
              {SIGNAL_PRIORITY.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Title" className="add-signal__grow" error={fieldError(create.error, 'title')}>
          {(control) => <input {...control} className="input" value={title} maxLength={LIMITS.NewSignalBody.title.maxLength} placeholder="What happened?" onChange={(e) => setTitle(e.target.value)} />}
        </Field>
      </div>
      <Field label="Detail" hint={`Optional, up to ${LIMITS.NewSignalBody.detail.maxLength} characters.`} error={fieldError(create.error, 'detail')}>
        {(control) => <textarea {...control} className="input textarea" rows={3} value={detail} maxLength={LIMITS.NewSignalBody.detail.maxLength} onChange={(e) => setDetail(e.target.value)} />}
      </Field>
      <Field label="Link" hint="Optional http(s) URL." error={fieldError(create.error, 'sourceUrl')}>
        {(control) => <input {...control} className="input input--wide" type="url" value={url} maxLength={LIMITS.NewSignalBody.sourceUrl.maxLength} placeholder="https://" onChange={(e) => setUrl(e.target.value)} />}
      </Field>
      <div className="actions">
        <button type="submit" className="button" disabled={create.isPending}>
          {create.isPending ? 'Adding…' : 'Add signal'}
        </button>
      </div>
      <FormError error={create.error} fields={FIELDS} />
    </form>
  );
}
