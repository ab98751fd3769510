import { useState, type FormEvent } from 'react';
import { LIMITS, MEMORY_KIND } from '../../../api/rules.gen';
import { Field } from '../../../components/Field';
import { FormError, fieldError } from '../../../components/FormError';
import { useCreateMemory, type MemoryKind } from '../api';
import { parseTags } from '../format';

const FIELDS = ['kind', 'title', 'content', 'importance', 'pinned', 'tags'];
const B = LIMITS.CreateMemoryBody;

/** A memory entry written by hand: a fact, decision, preference or lesson the AI cycles should know. */
export function AddMemoryForm({ onDone }: { onDone: (title: string) => void }) {
  const create = useCreateMemory();
  const [kind, setKind] = useState<MemoryKind>('fact');
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [importance, setImportance] = useState('');
  const [pinned, setPinned] = useState(false);
  const [tags, setTags] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const rated = importance.trim() === '' ? null : Number(importance);
    create.mutate({ kind, title: title.trim(), content: content.trim(), importance: rated, pinned, tags: parseTags(tags) }, { onSuccess: (m) => onDone(m.title) });
  };
  return (
    <form className="add-memory" onSubmit={submit} noValidate aria-label="Add a memory entry">
      <div className="add-memory__row">
        <Field label="Kind" error={fieldError(create.error, 'kind')}>
          {(control) => (
            <select {...control} className="input input--select" value={kind} onChange={(e) => setKind(e.target.value as MemoryKind)}>
              {MEMORY_KIND.map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Title" className="add-memory__grow" error={fieldError(create.error, 'title')}>
          {(control) => <input {...control} className="input" value={title} maxLength={B.title.maxLength} placeholder="What should the desk remember?" onChange={(e) => setTitle(e.target.value)} />}
        </Field>
      </div>
      <Field label="Content" hint={`Up to ${B.content.maxLength} characters.`} error={fieldError(create.error, 'content')}>
        {(control) => <textarea {...control} className="input textarea" rows={3} value={content} maxLength={B.content.maxLength} onChange={(e) => setContent(e.target.value)} />}
      </Field>
      <div className="add-memory__row">
        <Field label="Importance" hint={`${B.importance.minimum}-${B.importance.maximum}; 9 or more keeps it off the stale list.`} error={fieldError(create.error, 'importance')}>
          {(control) => (
            <input
              {...control}
              className="input input--narrow"
              type="number"
              min={B.importance.minimum}
              max={B.importance.maximum}
              step="any"
              value={importance}
              onChange={(e) => setImportance(e.target.value)}
            />
          )}
        </Field>
        <Field label="Tags" className="add-memory__grow" hint={`Up to ${B.tags.maxItems}, separated by commas: lowercase words joined by hyphens.`} error={fieldError(create.error, 'tags')}>
          {(control) => <input {...control} className="input" value={tags} placeholder="pricing, onboarding" onChange={(e) => setTags(e.target.value)} />}
        </Field>
      </div>
      <label className="checkbox">
        <input type="checkbox" checked={pinned} onChange={(e) => setPinned(e.target.checked)} />
        <span>Pinned (never stale, never archived)</span>
      </label>
      <div className="actions">
        <button type="submit" className="button" disabled={create.isPending}>
          {create.isPending ? 'Adding…' : 'Add entry'}
        </button>
      </div>
      <FormError error={create.error} fields={FIELDS} />
    </form>
  );
}
