import { useState, type FormEvent } from 'react';
import { Field } from '../../../components/Field';
import { FormError, fieldError } from '../../../components/FormError';
import { AutoSaveSelect } from '../../../components/AutoSaveSelect';
import { Section, SettingRow } from '../../../components/Section';
import { SubmitActions } from '../../../components/SubmitActions';
import { centsToDollarInput, dollarsToCents, formatCents, parseWhole } from '../../../lib/format';
import { useDraft } from '../../../lib/use-draft';
import {
  useSetCostCap,
  useSetSourceChronicSpike,
  useSetSourceSpikeAction,
  useSetTagSpikeAction,
  useSetTaskSpikeAction,
  type SpikeAction,
  type WorkspaceProfile,
} from '../api';
import { SPIKE_ACTION_OPTIONS } from '../presets';
import { LIMITS } from '../../../api/rules.gen';

// A select's value is a string: "not set" (null) is ''.
const toOption = (a: SpikeAction): string => a ?? '';
const fromOption = (v: string): SpikeAction => (v === 'none' || v === 'pause' ? v : null);
const OPTIONS = SPIKE_ACTION_OPTIONS.map((o) => ({ value: toOption(o.value), label: o.label }));

function SpikeActionSelect({
  label,
  field,
  value,
  mutation,
}: {
  label: string;
  field: string;
  value: SpikeAction;
  mutation: { isPending: boolean; isSuccess: boolean; submittedAt: number; error: unknown; mutate(action: SpikeAction): void };
}) {
  return (
    <div className="inline-form">
      <AutoSaveSelect label={label} field={field} value={toOption(value)} options={OPTIONS} mutation={{ ...mutation, mutate: (v) => mutation.mutate(fromOption(v)) }} />
      <FormError error={mutation.error} fields={[field]} />
    </div>
  );
}

function SpikeActions({ profile }: { profile: WorkspaceProfile }) {
  const task = useSetTaskSpikeAction();
  const source = useSetSourceSpikeAction();
  const tag = useSetTagSpikeAction();
  return (
    <SettingRow
      title="Cost-spike actions"
      description="What happens when a task, source or tag spends at least twice its 7-day daily average. Alerts always show; “pause” also holds the spender until you acknowledge it."
    >
      <div className="control-grid">
        <SpikeActionSelect label="Task spikes" field="taskCostSpikeAction" value={profile.taskCostSpikeAction} mutation={{ ...task, mutate: (a) => task.mutate({ taskCostSpikeAction: a }) }} />
        <SpikeActionSelect
          label="Source spikes"
          field="sourceCostSpikeAction"
          value={profile.sourceCostSpikeAction}
          mutation={{ ...source, mutate: (a) => source.mutate({ sourceCostSpikeAction: a }) }}
        />
        <SpikeActionSelect label="Tag spikes" field="tagCostSpikeAction" value={profile.tagCostSpikeAction} mutation={{ ...tag, mutate: (a) => tag.mutate({ tagCostSpikeAction: a }) }} />
      </div>
    </SettingRow>
  );
}

function ChronicSpike({ profile }: { profile: WorkspaceProfile }) {
  const save = useSetSourceChronicSpike();
  const [action, setAction] = useDraft(profile.sourceChronicSpikeAction, toOption);
  const [days, setDays] = useDraft(profile.sourceChronicThresholdDays, String);
  const [localError, setLocalError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const thresholdDays = parseWhole(days);
    setLocalError(thresholdDays === null ? 'Enter a whole number of days.' : null);
    if (thresholdDays !== null) save.mutate({ sourceChronicSpikeAction: fromOption(action), thresholdDays });
  };
  return (
    <SettingRow title="Chronic source spikes" description="A source that spikes this many days in a row counts as chronic.">
      <form className="inline-form" onSubmit={submit} noValidate>
        <Field label="Chronic source action" error={fieldError(save.error, 'sourceChronicSpikeAction')}>
          {(control) => (
            <select {...control} className="input input--select" value={action} onChange={(e) => setAction(e.target.value)}>
              {OPTIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label="Chronic after (days)"
          hint="2–14 days in a row"
          error={localError ?? fieldError(save.error, 'thresholdDays')}
          after={<SubmitActions mutation={save} />}
        >
          {(control) => <input {...control} className="input input--number" type="number" min={LIMITS.SourceChronicSpikeBody.thresholdDays.minimum} max={LIMITS.SourceChronicSpikeBody.thresholdDays.maximum} value={days} onChange={(e) => setDays(e.target.value)} />}
        </Field>
      </form>
      <FormError error={save.error} fields={['sourceChronicSpikeAction', 'thresholdDays']} />
    </SettingRow>
  );
}

function CostCap({ profile }: { profile: WorkspaceProfile }) {
  const save = useSetCostCap();
  const cap = profile.dailyCostCapUsdCents;
  const [capped, setCapped] = useDraft(cap !== null, (on) => on);
  const [dollars, setDollars] = useDraft(cap, (c) => (c === null ? '' : centsToDollarInput(c)));
  const [localError, setLocalError] = useState<string | null>(null);
  const cents = dollarsToCents(dollars);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!capped) {
      setLocalError(null);
      save.mutate({ dailyCostCapUsdCents: null });
      return;
    }
    setLocalError(cents === null ? 'Enter an amount in dollars, e.g. 5 or 12.50.' : null);
    if (cents !== null) save.mutate({ dailyCostCapUsdCents: cents });
  };

  return (
    <SettingRow
      title="Daily cost cap"
      description={<>The most the desk may spend on AI per day, in the workspace timezone. Now: {cap === null ? 'no cap' : `${formatCents(cap)} per day`}.</>}
    >
      <form className="inline-form" onSubmit={submit} noValidate>
        <label className="checkbox">
          <input type="checkbox" checked={capped} onChange={(e) => setCapped(e.target.checked)} />
          Cap daily AI spend
        </label>
        <Field
          label="Daily cap (USD)"
          hint={capped ? (cents === null ? 'Dollars and cents, e.g. 5.00' : `${cents} cents`) : 'No cap'}
          error={localError ?? fieldError(save.error, 'dailyCostCapUsdCents')}
          after={<SubmitActions mutation={save} />}
        >
          {(control) => (
            <div className="input-affix">
              <span className="input-affix__prefix" aria-hidden="true">
                $
              </span>
              <input {...control} className="input input--money" inputMode="decimal" value={dollars} disabled={!capped} onChange={(e) => setDollars(e.target.value)} />
            </div>
          )}
        </Field>
      </form>
      <FormError error={save.error} fields={['dailyCostCapUsdCents']} />
    </SettingRow>
  );
}

export function CostSection({ profile }: { profile: WorkspaceProfile }) {
  return (
    <Section id="cost" title="Cost guardrails" description="Hard limits and alarms on AI spend.">
      <CostCap profile={profile} />
      <SpikeActions profile={profile} />
      <ChronicSpike profile={profile} />
    </Section>
  );
}
