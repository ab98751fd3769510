import { useState, type FormEvent } from 'react';
import { Field } from '../../../components/Field';
import { FormError, fieldError } from '../../../components/FormError';
import { SaveStatus } from '../../../components/SaveStatus';
import { Section } from '../../../components/Section';
import { Segmented } from '../../../components/Segmented';
import { SubmitActions } from '../../../components/SubmitActions';
import { parseWhole } from '../../../lib/format';
import { useDraft } from '../../../lib/use-draft';
import { useSetApprovalPolicy, type WorkspaceProfile } from '../api';
import { APPROVAL_PRESETS, presetOf, type ApprovalPresetName } from '../presets';
import { LIMITS } from '../../../api/rules.gen';

const OPTIONS = [
  ...APPROVAL_PRESETS.map((p) => ({ value: p.value as ApprovalPresetName, label: p.label, description: `Watch ${p.watchHours} h · overdue ${p.overdueHours} h` })),
  { value: 'custom' as ApprovalPresetName, label: 'Custom', description: 'Your own hours' },
];

export function ApprovalSection({ profile }: { profile: WorkspaceProfile }) {
  const policy = profile.approvalPolicy;
  const save = useSetApprovalPolicy();
  const serverPreset = presetOf(policy);
  const [mode, setMode] = useDraft(serverPreset, (p) => p);
  const [watch, setWatch] = useDraft(policy.watchHours, String);
  const [overdue, setOverdue] = useDraft(policy.overdueHours, String);
  const [localErrors, setLocalErrors] = useState<{ watchHours?: string; overdueHours?: string }>({});

  const choose = (value: ApprovalPresetName) => {
    setMode(value);
    setLocalErrors({});
    const preset = APPROVAL_PRESETS.find((p) => p.value === value);
    if (preset) save.mutate({ watchHours: preset.watchHours, overdueHours: preset.overdueHours });
    else save.reset();
  };

  const submitCustom = (e: FormEvent) => {
    e.preventDefault();
    const watchHours = parseWhole(watch);
    const overdueHours = parseWhole(overdue);
    const errors = {
      ...(watchHours === null ? { watchHours: 'Enter a whole number of hours' } : {}),
      ...(overdueHours === null ? { overdueHours: 'Enter a whole number of hours' } : {}),
    };
    setLocalErrors(errors);
    if (watchHours === null || overdueHours === null) return;
    save.mutate({ watchHours, overdueHours });
  };

  return (
    <Section
      id="approval"
      title="Approval policy"
      description="Outputs wait for your decision; time never decides for you. These thresholds only change their attention label: fresh, then watch, then overdue."
    >
      <Segmented label="Approval policy" variant="cards" value={mode} options={OPTIONS} onChange={choose} disabled={save.isPending} />
      {mode === 'custom' ? (
        <form className="inline-form inline-form--spaced" onSubmit={submitCustom} noValidate>
          <Field label="Watch after (hours)" hint="1–168" error={localErrors.watchHours ?? fieldError(save.error, 'watchHours')}>
            {(control) => <input {...control} className="input input--number" type="number" min={LIMITS.ApprovalPolicyBody.watchHours.minimum} max={LIMITS.ApprovalPolicyBody.watchHours.maximum} value={watch} onChange={(e) => setWatch(e.target.value)} />}
          </Field>
          <Field
            label="Overdue after (hours)"
            hint="2–720, more than watch"
            error={localErrors.overdueHours ?? fieldError(save.error, 'overdueHours')}
            after={<SubmitActions mutation={save} />}
          >
            {(control) => <input {...control} className="input input--number" type="number" min={LIMITS.ApprovalPolicyBody.overdueHours.minimum} max={LIMITS.ApprovalPolicyBody.overdueHours.maximum} value={overdue} onChange={(e) => setOverdue(e.target.value)} />}
          </Field>
        </form>
      ) : (
        <p className="muted small">
          Now: watch after <strong>{policy.watchHours} h</strong>, overdue after <strong>{policy.overdueHours} h</strong>. <SaveStatus mutation={save} />
        </p>
      )}
      <FormError error={save.error} fields={mode === 'custom' ? ['watchHours', 'overdueHours'] : []} />
    </Section>
  );
}
