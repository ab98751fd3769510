import { useState, type FormEvent } from 'react';
import { LIMITS } from '../../api/rules.gen';
import { Field } from '../../components/Field';
import { FormError, fieldError } from '../../components/FormError';
import { SelectAllCheckbox } from '../../components/SelectAllCheckbox';
import { SubmitActions } from '../../components/SubmitActions';
import { groupByArea, useCreateSubscription, type CreatedOutboundSubscription, type OutboundEventInfo } from './outbound-api';
import { CopyButton } from '../ingest/WebhookUrl';

/** The event picker: events grouped by area, a select-all per area and one for everything. */
export function EventPicker({ events, chosen, onChange }: { events: readonly OutboundEventInfo[]; chosen: ReadonlySet<string>; onChange: (next: Set<string>) => void }) {
  const set = (names: readonly string[], on: boolean) => {
    const next = new Set(chosen);
    for (const n of names) if (on) next.add(n);
    else next.delete(n);
    onChange(next);
  };
  return (
    <fieldset className="event-picker">
      <legend>
        <label>
          <SelectAllCheckbox total={events.length} selected={events.filter((e) => chosen.has(e.name)).length} onChange={(all) => set(events.map((e) => e.name), all)} label="All events" /> All events
        </label>
      </legend>
      {groupByArea(events).map(([area, list]) => (
        <div key={area} className="event-picker__group" role="group" aria-label={`${area} events`}>
          <label className="event-picker__area">
            <SelectAllCheckbox total={list.length} selected={list.filter((e) => chosen.has(e.name)).length} onChange={(all) => set(list.map((e) => e.name), all)} label={`All ${area} events`} />{' '}
            {area}
          </label>
          <ul className="event-picker__list">
            {list.map((e) => (
              <li key={e.name}>
                <label title={e.description}>
                  <input type="checkbox" checked={chosen.has(e.name)} onChange={(ev) => set([e.name], ev.target.checked)} /> <code>{e.name}</code>
                </label>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </fieldset>
  );
}

/** The secret of a new subscription, with copy: the only time it is shown. */
function CreatedSecret({ created, onDone }: { created: CreatedOutboundSubscription; onDone: () => void }) {
  return (
    <div className="outbound-secret" role="region" aria-label="Signing secret">
      <p>
        <strong>Copy the signing secret now: you won&apos;t see it again.</strong> Your receiver verifies each delivery with it (any Standard Webhooks library:{' '}
        <code>new Webhook(secret).verify(body, headers)</code>).
      </p>
      <Field label="Signing secret" className="url-field" after={<CopyButton text={created.secret} name="signing secret" />}>
        {(control) => <input {...control} className="input input--code" readOnly value={created.secret} onFocus={(e) => e.target.select()} />}
      </Field>
      <button type="button" className="button button--secondary" onClick={onDone}>
        I have stored it
      </button>
    </div>
  );
}

/** Create a subscription: receiver URL, optional label, the events it gets; then the secret, once. */
export function SubscriptionForm({ events }: { events: readonly OutboundEventInfo[] }) {
  const create = useCreateSubscription();
  const [url, setUrl] = useState('');
  const [label, setLabel] = useState('');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [created, setCreated] = useState<CreatedOutboundSubscription | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (chosen.size === 0) {
      setLocalError('Choose at least one event');
      return;
    }
    setLocalError(null);
    create.mutate(
      { url: url.trim(), events: events.filter((ev) => chosen.has(ev.name)).map((ev) => ev.name), label: label.trim() || undefined },
      {
        onSuccess: (made) => {
          setCreated(made);
          setUrl('');
          setLabel('');
          setChosen(new Set());
        },
      },
    );
  };
  if (created) return <CreatedSecret created={created} onDone={() => setCreated(null)} />;
  return (
    <form className="stack stack--tight" onSubmit={submit} noValidate aria-label="New webhook subscription">
      <Field label="Receiver URL" hint="Where Desk POSTs each event (http or https; a local service such as http://127.0.0.1:8080/hooks works too)." error={fieldError(create.error, 'url')}>
        {(control) => (
          <input {...control} className="input input--code" type="url" value={url} maxLength={LIMITS.CreateOutboundSubscriptionBody.url.maxLength} placeholder="https://hooks.example.com/desk" spellCheck={false} onChange={(e) => setUrl(e.target.value)} />
        )}
      </Field>
      <Field label="Label" hint="Optional: which service receives them." error={fieldError(create.error, 'label')}>
        {(control) => <input {...control} className="input" value={label} maxLength={LIMITS.CreateOutboundSubscriptionBody.label.maxLength} onChange={(e) => setLabel(e.target.value)} />}
      </Field>
      <EventPicker events={events} chosen={chosen} onChange={setChosen} />
      {localError ? (
        <p className="form-error" role="alert">
          {localError}
        </p>
      ) : null}
      <div className="actions">
        <SubmitActions mutation={create} label="Create subscription" />
      </div>
      <FormError error={create.error} fields={['url', 'label']} />
    </form>
  );
}
