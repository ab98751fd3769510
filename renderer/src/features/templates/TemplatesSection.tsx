import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { LIMITS, TASK_DELIVERABLE_TYPE, TASK_KIND, TASK_PRIORITY } from '../../api/rules.gen';
import { ConfirmButton } from '../../components/ConfirmButton';
import { Field } from '../../components/Field';
import { FormError, fieldError } from '../../components/FormError';
import { QueryState } from '../../components/Page';
import { Section } from '../../components/Section';
import { SubmitActions } from '../../components/SubmitActions';
import { formatRelative } from '../../lib/format';
import { templatesQuery, useCreateTemplate, useDeleteTemplate, useUpdateTemplate, type NewTaskTemplate, type TaskTemplate } from './api';
import './templates.css';

/** The most templates a workspace keeps (the server's limit; it answers 409 past it). */
export const MAX_TEMPLATES = 20;

type Draft = { label: string; emoji: string; title: string; summary: string; kind: string; deliverableType: string; priority: string; tags: string };
const EMPTY: Draft = { label: '', emoji: '', title: '', summary: '', kind: '', deliverableType: '', priority: '', tags: '' };

const draftOf = (t: TaskTemplate): Draft => ({
  label: t.label,
  emoji: t.emoji ?? '',
  title: t.title,
  summary: t.summary,
  kind: t.kind,
  deliverableType: t.deliverableType,
  priority: t.priority ?? '',
  tags: t.tags.join(', '),
});

function bodyOf(d: Draft): NewTaskTemplate {
  return {
    label: d.label.trim(),
    emoji: d.emoji.trim() || null,
    title: d.title.trim(),
    summary: d.summary.trim(),
    // The selects offer only the API's values; an empty choice is sent as is and answered with a 422 next to the field.
    kind: d.kind as NewTaskTemplate['kind'],
    deliverableType: d.deliverableType as NewTaskTemplate['deliverableType'],
    priority: (d.priority || null) as NewTaskTemplate['priority'],
    tags: d.tags.split(',').map((t) => t.trim()).filter(Boolean),
  };
}

const B = LIMITS.NewTaskTemplateBody;
const FIELDS: { key: keyof Draft; label: string; max?: number; multiline?: boolean; hint?: string; options?: readonly string[]; optional?: boolean }[] = [
  { key: 'label', label: 'Label', max: B.label.maxLength, hint: 'Unique among templates.' },
  { key: 'emoji', label: 'Emoji', max: B.emoji.maxLength },
  { key: 'title', label: 'Task title', max: B.title.maxLength },
  { key: 'summary', label: 'Summary', max: B.summary.maxLength, multiline: true },
  { key: 'kind', label: 'Kind', options: TASK_KIND },
  { key: 'deliverableType', label: 'Deliverable type', options: TASK_DELIVERABLE_TYPE },
  { key: 'priority', label: 'Priority', options: TASK_PRIORITY, optional: true },
  { key: 'tags', label: 'Tags', hint: 'Comma separated, lowercase words joined by hyphens.' },
];

function TemplateForm({ initial, submitLabel, onSubmit, mutation, onCancel }: {
  initial: Draft;
  submitLabel: string;
  onSubmit: (d: Draft, done: () => void) => void;
  mutation: { isPending: boolean; isSuccess: boolean; submittedAt: number; error: unknown };
  onCancel?: () => void;
}) {
  const [draft, setDraft] = useState(initial);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit(draft, () => setDraft(initial));
  };
  const tagError = (() => {
    for (let i = 0; i < LIMITS.NewTaskTemplateBody.tags.maxItems; i++) {
      const e = fieldError(mutation.error, `tags[${i}]`);
      if (e) return e;
    }
    return fieldError(mutation.error, 'tags');
  })();
  return (
    <form className="templates__form" onSubmit={submit} noValidate aria-label={submitLabel}>
      {FIELDS.map((f) => (
        <Field key={f.key} label={f.label} hint={f.hint} error={f.key === 'tags' ? tagError : fieldError(mutation.error, f.key)}>
          {(control) =>
            f.options ? (
              <select {...control} className="input" value={draft[f.key]} onChange={(e) => setDraft({ ...draft, [f.key]: e.target.value })}>
                <option value="">{f.optional ? 'None' : 'Choose…'}</option>
                {f.options.map((o) => (
                  <option key={o} value={o}>
                    {o.replace(/_/g, ' ')}
                  </option>
                ))}
              </select>
            ) : f.multiline ? (
              <textarea {...control} className="input" rows={3} maxLength={f.max} value={draft[f.key]} onChange={(e) => setDraft({ ...draft, [f.key]: e.target.value })} />
            ) : (
              <input {...control} className="input" maxLength={f.max} value={draft[f.key]} onChange={(e) => setDraft({ ...draft, [f.key]: e.target.value })} />
            )
          }
        </Field>
      ))}
      <div className="inline-form">
        <SubmitActions mutation={mutation} label={submitLabel}>
          {onCancel ? (
            <button type="button" className="button button--ghost" onClick={onCancel}>
              Cancel
            </button>
          ) : null}
        </SubmitActions>
      </div>
      <FormError error={mutation.error} fields={[...FIELDS.map((f) => f.key), ...Array.from({ length: LIMITS.NewTaskTemplateBody.tags.maxItems }, (_, i) => `tags[${i}]`)]} />
    </form>
  );
}

function TemplateRow({ template }: { template: TaskTemplate }) {
  const [editing, setEditing] = useState(false);
  const update = useUpdateTemplate();
  const remove = useDeleteTemplate();
  if (editing) {
    return (
      <li className="templates__item" aria-label={template.label}>
        <TemplateForm
          initial={draftOf(template)}
          submitLabel={`Save ${template.label}`}
          mutation={update}
          onCancel={() => setEditing(false)}
          onSubmit={(d) => update.mutate({ id: template.id, body: bodyOf(d) }, { onSuccess: () => setEditing(false) })}
        />
      </li>
    );
  }
  return (
    <li className="templates__item" aria-label={template.label}>
      <span className="templates__emoji" aria-hidden="true">
        {template.emoji ?? '•'}
      </span>
      <span className="templates__what">
        <strong>{template.label}</strong>
        <span className="muted small">
          {template.title} · {template.kind} · {template.deliverableType}
          {template.priority ? ` · ${template.priority}` : ''}
          {template.tags.length ? ` · ${template.tags.map((t) => `#${t}`).join(' ')}` : ''}
        </span>
        <span className="muted small">{template.usageCount === 0 ? 'Never used' : `Used ${template.usageCount}× · last ${formatRelative(template.lastUsedAt!)}`}</span>
      </span>
      <span className="templates__actions">
        <button type="button" className="button button--ghost button--small" onClick={() => setEditing(true)}>
          Edit
        </button>
        <ConfirmButton label="Delete" question={`Delete the template ${template.label}?`} confirmLabel="Delete" disabled={remove.isPending} onConfirm={() => remove.mutate(template.id)} />
      </span>
      <FormError error={remove.error} />
    </li>
  );
}

/** Settings > Templates: the workspace's task templates (at most 20): list, create, edit, delete. */
export function TemplatesSection() {
  const list = useQuery(templatesQuery());
  const create = useCreateTemplate();
  const templates = list.data?.templates ?? [];
  const full = templates.length >= MAX_TEMPLATES;
  return (
    <Section id="templates" title="Task templates" description={`Starting points for new tasks, shared by the workspace (at most ${MAX_TEMPLATES}).`}>
      <QueryState isPending={list.isPending} error={list.error} onRetry={() => void list.refetch()} />
      {list.data ? (
        templates.length > 0 ? (
          <ul className="templates__list" aria-label="Task templates">
            {templates.map((t) => (
              <TemplateRow key={t.id} template={t} />
            ))}
          </ul>
        ) : (
          <p className="muted small">No templates yet.</p>
        )
      ) : null}
      {full ? (
        <p className="muted small">The workspace has {MAX_TEMPLATES} templates: delete one to add another.</p>
      ) : (
        <details className="templates__new">
          <summary>New template</summary>
          <TemplateForm initial={EMPTY} submitLabel="Create template" mutation={create} onSubmit={(d, done) => create.mutate(bodyOf(d), { onSuccess: done })} />
        </details>
      )}
    </Section>
  );
}
