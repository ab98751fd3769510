import { useState, type FormEvent } from 'react';
import { Field } from '../../../components/Field';
import { FormError, fieldError } from '../../../components/FormError';
import { Section, SettingRow } from '../../../components/Section';
import { SubmitActions } from '../../../components/SubmitActions';
import { parseWhole } from '../../../lib/format';
import { useDraft } from '../../../lib/use-draft';
import { useSetMemoryArchive, useSetTaskArchive, type WorkspaceProfile } from '../api';
import { LIMITS } from '../../../api/rules.gen';

interface ThresholdProps {
  title: string;
  description: string;
  toggleLabel: string;
  daysLabel: string;
  field: string;
  min: number;
  max: number;
  value: number | null;
  mutation: { isPending: boolean; isSuccess: boolean; submittedAt: number; error: unknown; mutate(days: number | null): void };
}

/** A day threshold that can be switched off (null). */
function ThresholdSetting({ title, description, toggleLabel, daysLabel, field, min, max, value, mutation }: ThresholdProps) {
  const [enabled, setEnabled] = useDraft(value !== null, (on) => on);
  const [days, setDays] = useDraft(value, (v) => (v === null ? String(min) : String(v)));
  const [localError, setLocalError] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!enabled) {
      setLocalError(null);
      mutation.mutate(null);
      return;
    }
    const n = parseWhole(days);
    setLocalError(n === null ? 'Enter a whole number of days.' : null);
    if (n !== null) mutation.mutate(n);
  };

  return (
    <SettingRow title={title} description={description}>
      <form className="inline-form" onSubmit={submit} noValidate>
        <label className="checkbox">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
          {toggleLabel}
        </label>
        <Field
          label={daysLabel}
          hint={enabled ? `${min}–${max} days` : 'Off'}
          error={localError ?? fieldError(mutation.error, field)}
          after={<SubmitActions mutation={mutation} />}
        >
          {(control) => (
            <input {...control} className="input input--number" type="number" min={min} max={max} value={days} disabled={!enabled} onChange={(e) => setDays(e.target.value)} />
          )}
        </Field>
      </form>
      <FormError error={mutation.error} fields={[field]} />
    </SettingRow>
  );
}

export function ArchivingSection({ profile }: { profile: WorkspaceProfile }) {
  const tasks = useSetTaskArchive();
  const memory = useSetMemoryArchive();
  return (
    <Section id="archiving" title="Archiving" description="Keep the desk tidy: archive what nobody has touched for a while. Pinned items are never archived.">
      <ThresholdSetting
        title="Stale tasks"
        description="Archive queued or in-progress tasks with no update for this many days."
        toggleLabel="Archive stale tasks"
        daysLabel="Task threshold (days)"
        field="staleTaskAutoArchiveDays"
        min={LIMITS.AutoArchiveConfig.staleTaskAutoArchiveDays.minimum}
        max={LIMITS.AutoArchiveConfig.staleTaskAutoArchiveDays.maximum}
        value={profile.staleTaskAutoArchiveDays}
        mutation={{ ...tasks, mutate: (days) => tasks.mutate({ staleTaskAutoArchiveDays: days }) }}
      />
      <ThresholdSetting
        title="Stale memory"
        description="Archive memory entries not retrieved for this many days."
        toggleLabel="Archive stale memory"
        daysLabel="Memory threshold (days)"
        field="staleMemoryAutoArchiveDays"
        min={LIMITS.MemoryArchiveConfig.staleMemoryAutoArchiveDays.minimum}
        max={LIMITS.MemoryArchiveConfig.staleMemoryAutoArchiveDays.maximum}
        value={profile.staleMemoryAutoArchiveDays}
        mutation={{ ...memory, mutate: (days) => memory.mutate({ staleMemoryAutoArchiveDays: days }) }}
      />
    </Section>
  );
}
