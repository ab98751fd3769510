import { useState, type FormEvent } from 'react';
import { Field } from '../../../components/Field';
import { FormError, fieldError } from '../../../components/FormError';
import { SaveStatus } from '../../../components/SaveStatus';
import { Section, SettingRow } from '../../../components/Section';
import { formatDateTime, formatDuration } from '../../../lib/format';
import { useDraft } from '../../../lib/use-draft';
import { useCursorList } from '../../../api/cursor-list';
import { LoadMore } from '../../../components/LoadMore';
import { QUERY } from '../../../api/rules.gen';
import { focusHistoryList, useSetFocusTags, type WorkspaceProfile } from '../api';
import { FOCUS_TAG_PATTERN, MAX_FOCUS_TAG_LENGTH, MAX_FOCUS_TAGS } from '../presets';

/** Why a tag cannot be added to the draft, or null when it can. */
export function focusTagProblem(tag: string, draft: readonly string[]): string | null {
  if (!tag) return 'Type a tag first';
  if (draft.length >= MAX_FOCUS_TAGS) return `At most ${MAX_FOCUS_TAGS} focus tags; remove one first`;
  if (tag.length > MAX_FOCUS_TAG_LENGTH) return `At most ${MAX_FOCUS_TAG_LENGTH} characters`;
  if (!FOCUS_TAG_PATTERN.test(tag)) return 'Use lowercase letters and digits joined by single hyphens, e.g. q3-launch';
  if (draft.includes(tag)) return `"${tag}" is already a focus tag`;
  return null;
}

function FocusTagsEditor({ tags }: { tags: string[] }) {
  const save = useSetFocusTags();
  // Keyed by the tags' text: a refetch of the same tags (a new array) leaves the draft alone.
  const serverKey = tags.join(',');
  const [draft, setDraft] = useDraft(serverKey, () => tags);
  const [text, setText] = useState('');
  const [localError, setLocalError] = useState<string | null>(null);
  const dirty = draft.join(',') !== serverKey;

  const add = (e: FormEvent) => {
    e.preventDefault();
    const tag = text.trim().toLowerCase();
    const problem = focusTagProblem(tag, draft);
    setLocalError(problem);
    if (problem) return;
    setDraft([...draft, tag]);
    setText('');
  };
  const remove = (tag: string) => {
    setLocalError(null);
    setDraft(draft.filter((t) => t !== tag));
  };

  return (
    <SettingRow title="Focus tags" description={`Up to ${MAX_FOCUS_TAGS} tags the AI cycle weighs first. Each saved change starts a new focus shift.`}>
      <ul className="tag-list" aria-label="Focus tags">
        {draft.length === 0 ? <li className="muted small">No focus tags</li> : null}
        {draft.map((tag) => (
          <li key={tag} className="tag">
            {tag}
            <button type="button" className="tag__remove" aria-label={`Remove ${tag}`} onClick={() => remove(tag)}>
              ×
            </button>
          </li>
        ))}
      </ul>
      <form className="inline-form" onSubmit={add} noValidate>
        <Field
          label="Add a focus tag"
          hint={
            <>
              Lowercase letters and digits joined by hyphens, e.g. <span className="nowrap">q3-launch</span>. {draft.length}/{MAX_FOCUS_TAGS} used.
            </>
          }
          error={localError ?? fieldError(save.error, 'tags')}
          after={
            <button type="submit" className="button button--secondary" disabled={draft.length >= MAX_FOCUS_TAGS}>
              Add
            </button>
          }
        >
          {(control) => (
            <input {...control} className="input" value={text} maxLength={MAX_FOCUS_TAG_LENGTH} onChange={(e) => setText(e.target.value)} disabled={draft.length >= MAX_FOCUS_TAGS} />
          )}
        </Field>
      </form>
      <div className="actions">
        <button type="button" className="button" disabled={!dirty || save.isPending} onClick={() => save.mutate({ tags: draft })}>
          Save focus
        </button>
        {dirty ? (
          <button type="button" className="button button--ghost" onClick={() => (setDraft(tags), setLocalError(null), save.reset())}>
            Discard changes
          </button>
        ) : null}
        <SaveStatus mutation={save} />
      </div>
      <FormError error={save.error} fields={['tags']} />
    </SettingRow>
  );
}

const HISTORY_WINDOWS = [30, 90, 365] as const;

/** How long a shift held, in words; a shift under a minute old is not "0 min". */
export function shiftDuration(shift: { durationMinutes: number; current: boolean }): string {
  const length = shift.durationMinutes < 1 ? 'less than a minute' : formatDuration(shift.durationMinutes);
  return shift.current ? `for ${length} so far` : `held ${length}`;
}

function FocusHistory() {
  const [sinceDays, setSinceDays] = useState<number>(QUERY.getFocusHistory.sinceDays.default);
  const history = useCursorList(focusHistoryList(sinceDays));
  const shifts = history.items;
  return (
    <SettingRow title="Focus history" description="Every focus shift in the window, newest first, with how long it held.">
      <Field label="Window">
        {(control) => (
          <select {...control} className="input input--select" value={sinceDays} onChange={(e) => setSinceDays(Number(e.target.value))}>
            {HISTORY_WINDOWS.map((d) => (
              <option key={d} value={d}>
                Last {d} days
              </option>
            ))}
          </select>
        )}
      </Field>
      {history.isPending ? <p className="muted small">Loading…</p> : null}
      {history.error && !history.isFetchNextPageError ? <FormError error={history.error} /> : null}
      {history.data && shifts.length === 0 ? <p className="muted small">No focus shifts in the last {sinceDays} days.</p> : null}
      {shifts.length > 0 ? (
        <ol className="timeline" aria-label="Focus shifts">
          {shifts.map((shift) => (
            <li key={shift.id} className={`timeline__item${shift.current ? ' is-current' : ''}`}>
              <div className="timeline__tags">
                {shift.tags.length ? shift.tags.map((t) => <span key={t} className="tag tag--static">{t}</span>) : <span className="muted">Focus cleared</span>}
                {shift.current ? <span className="badge badge--accent">current</span> : null}
              </div>
              <div className="timeline__meta">
                {formatDateTime(shift.startedAt)} · {shiftDuration(shift)}
              </div>
            </li>
          ))}
        </ol>
      ) : null}
      {shifts.length > 0 ? <LoadMore list={history} /> : null}
    </SettingRow>
  );
}

export function FocusSection({ profile }: { profile: WorkspaceProfile }) {
  return (
    <Section id="focus" title="Focus" description="Steer what the desk pays attention to.">
      <FocusTagsEditor tags={profile.focusTags} />
      <FocusHistory />
    </Section>
  );
}
