import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { LIMITS, TASK_DELIVERABLE_TYPE, TASK_KIND, TASK_PRIORITY } from '../../../api/rules.gen';
import { Field } from '../../../components/Field';
import { FormError, fieldError } from '../../../components/FormError';
import { templatesQuery, type TaskTemplate } from '../../templates/api';
import { useCreateTask, useRecordTemplateUse, type TaskDetail } from '../api';
import { parseTags } from '../format';

const FIELDS = ['title', 'summary', 'kind', 'deliverableType', 'priority', 'dueAt', 'tags'];

const oneOf = <T extends string>(values: readonly T[], v: string | null | undefined): T | '' => (v && (values as readonly string[]).includes(v) ? (v as T) : '');

/** A task written by hand, blank or started from a template (the template's use is recorded). */
export function NewTaskForm({ onDone }: { onDone: (task: TaskDetail) => void }) {
  const create = useCreateTask();
  const recordUse = useRecordTemplateUse();
  const templates = useQuery(templatesQuery());
  const [templateId, setTemplateId] = useState('');
  const [title, setTitle] = useState('');
  const [summary, setSummary] = useState('');
  const [kind, setKind] = useState('');
  const [deliverableType, setDeliverableType] = useState('');
  const [priority, setPriority] = useState('');
  const [due, setDue] = useState('');
  const [tags, setTags] = useState('');

  const applyTemplate = (t: TaskTemplate | undefined) => {
    setTemplateId(t?.id ?? '');
    if (!t) return;
    setTitle(t.title);
    setSummary(t.summary);
    setKind(oneOf(TASK_KIND, t.kind));
    setDeliverableType(oneOf(TASK_DELIVERABLE_TYPE, t.deliverableType));
    setPriority(oneOf(TASK_PRIORITY, t.priority));
    setTags(t.tags.join(', '));
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(
      {
        title: title.trim(),
        summary: summary.trim(),
        kind: (kind || null) as (typeof TASK_KIND)[number] | null,
        deliverableType: (deliverableType || null) as (typeof TASK_DELIVERABLE_TYPE)[number] | null,
        priority: (priority || null) as (typeof TASK_PRIORITY)[number] | null,
        dueAt: due || null,
        tags: parseTags(tags),
      },
      {
        onSuccess: (task) => {
          if (templateId) recordUse.mutate(templateId);
          onDone(task);
        },
      },
    );
  };

  const select = (label: string, field: string, value: string, set: (v: string) => void, options: readonly string[]) => (
    <Field label={label} error={fieldError(create.error, field)}>
      {(control) => (
        <select {...control} className="input input--select" value={value} onChange={(e) => set(e.target.value)}>
          <option value="">None</option>
          {options.map((o) => (
            <option key={o} value={o}>
              {o.replace('_', ' ')}
            </option>
          ))}
        </select>
      )}
    </Field>
  );

  return (
    <form className="task-form" onSubmit={submit} noValidate aria-label="New task">
      {templates.data && templates.data.templates.length > 0 ? (
        <Field label="Template" hint="Fills the form; you can change anything before creating.">
          {(control) => (
            <select {...control} className="input input--select" value={templateId} onChange={(e) => applyTemplate(templates.data.templates.find((t) => t.id === e.target.value))}>
              <option value="">Blank task</option>
              {templates.data.templates.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.emoji ? `${t.emoji} ` : ''}
                  {t.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      ) : null}
      <Field label="Title" error={fieldError(create.error, 'title')}>
        {(control) => <input {...control} className="input input--wide" value={title} maxLength={LIMITS.CreateTaskBody.title.maxLength} onChange={(e) => setTitle(e.target.value)} />}
      </Field>
      <Field label="Summary" error={fieldError(create.error, 'summary')}>
        {(control) => <textarea {...control} className="input textarea" rows={3} value={summary} maxLength={LIMITS.CreateTaskBody.summary.maxLength} onChange={(e) => setSummary(e.target.value)} />}
      </Field>
      <div className="task-form__row">
        {select('Kind', 'kind', kind, setKind, TASK_KIND)}
        {select('Deliverable', 'deliverableType', deliverableType, setDeliverableType, TASK_DELIVERABLE_TYPE)}
        {select('Priority', 'priority', priority, setPriority, TASK_PRIORITY)}
        <Field label="Due" error={fieldError(create.error, 'dueAt')}>
          {(control) => <input {...control} className="input" type="date" value={due} onChange={(e) => setDue(e.target.value)} />}
        </Field>
      </div>
      <Field label="Tags" hint={`Comma separated, at most ${LIMITS.CreateTaskBody.tags.maxItems}: lowercase letters and digits joined by hyphens.`} error={fieldError(create.error, 'tags')}>
        {(control) => <input {...control} className="input input--wide" value={tags} placeholder="launch, q3-plan" onChange={(e) => setTags(e.target.value)} />}
      </Field>
      <div className="actions">
        <button type="submit" className="button" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create task'}
        </button>
      </div>
      <FormError error={create.error} fields={FIELDS} />
    </form>
  );
}
