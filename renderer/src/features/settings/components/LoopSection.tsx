import { useState, type FormEvent } from 'react';
import { Field } from '../../../components/Field';
import { FormError, fieldError } from '../../../components/FormError';
import { MAX_PAUSE_DAYS, PauseUntilForm } from '../../../components/PauseUntilForm';
import { SaveStatus } from '../../../components/SaveStatus';
import { Section, SettingRow } from '../../../components/Section';
import { Segmented } from '../../../components/Segmented';
import { SubmitActions } from '../../../components/SubmitActions';
import { useDraft } from '../../../lib/use-draft';
import { parseWhole } from '../../../lib/format';
import { useSetLoopInterval, useSetLoopState, useSetPauseUntil, type LoopState, type WorkspaceProfile } from '../api';
import { viewerTimezone, workspaceTimeNote } from '../zone';
import { LIMITS } from '../../../api/rules.gen';

const LOOP_STATES = [
  { value: 'on', label: 'On', description: 'Runs cycles' },
  { value: 'paused', label: 'Paused', description: 'Holds for now' },
  { value: 'off', label: 'Off', description: 'Stopped' },
] as const satisfies readonly { value: LoopState; label: string; description: string }[];

function LoopStateControl({ profile }: { profile: WorkspaceProfile }) {
  const setLoop = useSetLoopState();
  // The choice shows at once (a controlled radio would snap back until the request is under way).
  const [selected, setSelected] = useDraft(profile.loopState, (s) => s);
  const choose = (loopState: LoopState) => {
    setSelected(loopState);
    setLoop.mutate({ loopState }, { onError: () => setSelected(profile.loopState) });
  };
  return (
    <SettingRow title="Loop state" description="Whether the desk runs AI cycles. Choosing a state by hand clears a scheduled pause.">
      <Segmented
        label="Loop state"
        value={selected}
        options={LOOP_STATES}
        onChange={choose}
        disabled={setLoop.isPending}
      />
      <div className="row-status">
        <SaveStatus mutation={setLoop} />
      </div>
      <FormError error={setLoop.error} />
    </SettingRow>
  );
}

function ScheduledPause({ profile }: { profile: WorkspaceProfile }) {
  const setPause = useSetPauseUntil();
  const workspaceNote = profile.pauseUntilAt ? workspaceTimeNote(profile.pauseUntilAt, profile.timezone) : null;
  return (
    <SettingRow title="Scheduled pause" description={`Pause now and resume by itself at a set time, at most ${MAX_PAUSE_DAYS} days ahead.`}>
      <PauseUntilForm
        pausedUntilAt={profile.pauseUntilAt}
        zoneNote={workspaceNote ? `${workspaceNote}, the workspace timezone` : null}
        hint={`In your local time (${viewerTimezone()}).`}
        field="pauseUntilAt"
        resumeLabel="Clear"
        mutation={setPause}
        onChange={(pauseUntilAt, done) => setPause.mutate({ pauseUntilAt }, { onSuccess: done })}
      />
    </SettingRow>
  );
}

function LoopInterval({ profile }: { profile: WorkspaceProfile }) {
  const saveInterval = useSetLoopInterval();
  const [value, setValue] = useDraft(profile.loopIntervalMinutes, String);
  const [localError, setLocalError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const minutes = parseWhole(value);
    if (minutes === null) {
      setLocalError('Enter a whole number of minutes.');
      return;
    }
    setLocalError(null);
    saveInterval.mutate({ loopIntervalMinutes: minutes });
  };
  const floorApplies = profile.loopIntervalMinutes < profile.planFloorMinutes;
  return (
    <SettingRow title="Loop interval" description="Minutes between AI cycles. Your plan sets the shortest interval the desk will run at.">
      <form className="inline-form" onSubmit={submit} noValidate>
        <Field
          label="Loop interval (minutes)"
          hint={
            <>
              Effective {profile.effectiveLoopIntervalMinutes} min (plan floor {profile.planFloorMinutes} on {profile.plan})
              {floorApplies ? '. The plan floor applies.' : ''}
            </>
          }
          error={localError ?? fieldError(saveInterval.error, 'loopIntervalMinutes')}
          after={<SubmitActions mutation={saveInterval} />}
        >
          {(control) => (
            <input {...control} className="input input--number" type="number" inputMode="numeric" min={LIMITS.LoopIntervalBody.loopIntervalMinutes.minimum} max={LIMITS.LoopIntervalBody.loopIntervalMinutes.maximum} step={1} value={value} onChange={(e) => setValue(e.target.value)} />
          )}
        </Field>
      </form>
      <FormError error={saveInterval.error} fields={['loopIntervalMinutes']} />
    </SettingRow>
  );
}

export function LoopSection({ profile }: { profile: WorkspaceProfile }) {
  return (
    <Section id="loop" title="Loop" description="The AI cycle that turns signals and memory into tasks and outputs.">
      <LoopStateControl profile={profile} />
      <ScheduledPause profile={profile} />
      <LoopInterval profile={profile} />
    </Section>
  );
}
