import { useMemo, useState, type FormEvent } from 'react';
import { Field } from '../../../components/Field';
import { FormError, fieldError } from '../../../components/FormError';
import { AutoSaveSelect } from '../../../components/AutoSaveSelect';
import { Section, SettingRow } from '../../../components/Section';
import { SubmitActions } from '../../../components/SubmitActions';
import { useDraft } from '../../../lib/use-draft';
import { useSetDigestEmail, useSetPlan, useSetTimezone, type Plan, type WorkspaceProfile } from '../api';
import { PLAN_OPTIONS } from '../presets';

function Timezone({ profile }: { profile: WorkspaceProfile }) {
  const save = useSetTimezone();
  const [value, setValue] = useDraft(profile.timezone, String);
  const zones = useMemo(() => (typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []), []);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ timezone: value.trim() });
  };
  return (
    <SettingRow title="Timezone" description="Defines what “today” means for daily costs, caps and the digest.">
      <form className="inline-form" onSubmit={submit} noValidate>
        <Field
          label="Timezone"
          hint="IANA name, e.g. Europe/Berlin"
          error={fieldError(save.error, 'timezone')}
          after={<SubmitActions mutation={save} />}
        >
          {(control) => <input {...control} className="input input--wide" list="desk-timezones" value={value} autoComplete="off" onChange={(e) => setValue(e.target.value)} />}
        </Field>
        <datalist id="desk-timezones">
          {zones.map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
      </form>
      <FormError error={save.error} fields={['timezone']} />
    </SettingRow>
  );
}

function DigestEmail({ profile }: { profile: WorkspaceProfile }) {
  const save = useSetDigestEmail();
  const [value, setValue] = useDraft(profile.digestEmail, (v) => v ?? '');
  const [localError, setLocalError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const email = value.trim();
    setLocalError(email ? null : 'Enter an address, or use Remove.');
    if (email) save.mutate({ digestEmail: email });
  };
  return (
    <SettingRow title="Digest email" description="Where the daily digest goes. Without an SMTP server it is written to the outbox folder.">
      <form className="inline-form" onSubmit={submit} noValidate>
        <Field
          label="Digest email"
          hint="An address such as you@example.com."
          error={localError ?? fieldError(save.error, 'digestEmail')}
          after={
            <SubmitActions
              mutation={save}
              clear={
                profile.digestEmail
                  ? {
                      label: 'Remove',
                      onClick: () => {
                        setLocalError(null);
                        save.mutate({ digestEmail: null });
                      },
                    }
                  : null
              }
            />
          }
        >
          {(control) => <input {...control} className="input input--wide" type="email" value={value} onChange={(e) => setValue(e.target.value)} />}
        </Field>
      </form>
      <FormError error={save.error} fields={['digestEmail']} />
    </SettingRow>
  );
}

function PlanSelect({ profile }: { profile: WorkspaceProfile }) {
  const save = useSetPlan();
  return (
    <SettingRow title="Plan" description="The plan sets the shortest loop interval (free 15, pro 5, team 1 minutes). Your cost cap stays as you set it.">
      <div className="inline-form">
        <AutoSaveSelect label="Plan" field="plan" value={profile.plan} options={PLAN_OPTIONS} mutation={{ ...save, mutate: (plan) => save.mutate({ plan: plan as Plan }) }} />
      </div>
      <FormError error={save.error} fields={['plan']} />
    </SettingRow>
  );
}

export function WorkspaceSection({ profile }: { profile: WorkspaceProfile }) {
  return (
    <Section id="workspace" title="Workspace" description={`${profile.name} · created ${new Date(profile.createdAt).toLocaleDateString()}`}>
      <Timezone profile={profile} />
      <DigestEmail profile={profile} />
      <PlanSelect profile={profile} />
    </Section>
  );
}
