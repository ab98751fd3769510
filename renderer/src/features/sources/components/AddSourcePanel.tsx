import { useState, type FormEvent } from 'react';
import { Field } from '../../../components/Field';
import { FormError, fieldError } from '../../../components/FormError';
import { formatDateTime } from '../../../lib/format';
import { useCreateSource, usePreviewSource, type Source, type SourcePreview } from '../api';
import { isFeedType, parseKeywords, SOURCE_TYPE_OPTIONS, type SourceType } from '../format';
import { LIMITS } from '../../../api/rules.gen';

const FIELDS = ['type', 'url', 'label', 'includeKeywords', 'excludeKeywords'];

function PreviewResult({ preview, stale }: { preview: SourcePreview; stale: boolean }) {
  return (
    <div className={`preview${stale ? ' preview--stale' : ''}`} aria-label="Feed preview" role="region">
      <div className="preview__header">
        <h3 className="preview__title">{preview.title ?? 'Untitled feed'}</h3>
        <span className="muted small">
          {preview.format.toUpperCase()} · {preview.itemCount} {preview.itemCount === 1 ? 'item' : 'items'}
          {stale ? ' · the URL changed since this preview' : ''}
        </span>
      </div>
      {preview.sample.length === 0 ? (
        <p className="muted small">The feed is valid but has no items right now.</p>
      ) : (
        <ol className="preview__items">
          {preview.sample.map((item, i) => (
            <li key={`${i}-${item.title}`} className="preview__item">
              <span className="preview__item-title">{item.title}</span>
              {item.detail ? <span className="preview__item-detail">{item.detail}</span> : null}
              {item.publishedAt ? <span className="muted small">{formatDateTime(item.publishedAt)}</span> : null}
            </li>
          ))}
        </ol>
      )}
      {preview.itemCount > preview.sample.length ? <p className="muted small">and {preview.itemCount - preview.sample.length} more; each becomes a signal on the first poll.</p> : null}
    </div>
  );
}

/** Add a source: type, URL, label, keyword filters; Preview fetches the feed without saving anything. */
export function AddSourcePanel({ onAdded, onCancel }: { onAdded: (source: Source) => void; onCancel?: () => void }) {
  const [type, setType] = useState<SourceType>('rss');
  const [url, setUrl] = useState('');
  const [label, setLabel] = useState('');
  const [include, setInclude] = useState('');
  const [exclude, setExclude] = useState('');
  const preview = usePreviewSource();
  const create = useCreateSource();
  const option = SOURCE_TYPE_OPTIONS.find((o) => o.value === type)!;
  const canPreview = type !== 'manual';
  const previewedUrl = preview.variables?.url;
  const shownPreview = preview.data && preview.variables?.type === type ? preview.data : null;

  const runPreview = () => {
    create.reset();
    preview.mutate(
      { url: url.trim(), type },
      {
        // The feed's own title is a good default label.
        onSuccess: (p) => {
          if (!label.trim() && p.title) setLabel(p.title.slice(0, LIMITS.CreateSourceBody.label.maxLength));
        },
      },
    );
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(
      {
        type,
        label: label.trim(),
        url: url.trim() || null,
        includeKeywords: parseKeywords(include),
        excludeKeywords: parseKeywords(exclude),
      },
      { onSuccess: (source) => onAdded(source) },
    );
  };

  const urlError = fieldError(create.error, 'url') ?? (preview.variables?.url === url.trim() ? fieldError(preview.error, 'url') : undefined);

  return (
    <form className="add-source" onSubmit={submit} noValidate aria-label="Add a source">
      <div className="add-source__grid">
        <Field label="Type" hint={option.hint} error={fieldError(create.error, 'type') ?? fieldError(preview.error, 'type')}>
          {(control) => (
            <select {...control} className="input input--select" value={type} onChange={(e) => setType(e.target.value as SourceType)}>
              {SOURCE_TYPE_OPTIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={type === 'file' ? 'File path' : type === 'manual' ? 'Link (optional)' : 'Feed URL'} className="add-source__url" error={urlError}>
          {(control) => (
            <input
              {...control}
              className="input"
              type={type === 'file' ? 'text' : 'url'}
              value={url}
              autoComplete="off"
              spellCheck={false}
              placeholder={type === 'file' ? '/home/me/signals.csv' : 'https://example.com/feed.xml'}
              onChange={(e) => setUrl(e.target.value)}
            />
          )}
        </Field>
        <Field label="Label" hint="How the source is named on signals; 1–80 characters." error={fieldError(create.error, 'label')}>
          {(control) => <input {...control} className="input" value={label} maxLength={LIMITS.CreateSourceBody.label.maxLength} placeholder="e.g. Competitor blog" onChange={(e) => setLabel(e.target.value)} />}
        </Field>
        {type !== 'manual' ? (
          <>
            <Field label="Include keywords" hint="Optional. Only items mentioning one of these become signals. Separate with commas." error={fieldError(create.error, 'includeKeywords')}>
              {(control) => <input {...control} className="input" value={include} placeholder="pricing, launch" onChange={(e) => setInclude(e.target.value)} />}
            </Field>
            <Field label="Exclude keywords" hint="Optional. Items mentioning one of these are dropped." error={fieldError(create.error, 'excludeKeywords')}>
              {(control) => <input {...control} className="input" value={exclude} placeholder="webinar" onChange={(e) => setExclude(e.target.value)} />}
            </Field>
          </>
        ) : null}
      </div>
      <div className="actions add-source__actions">
        {canPreview ? (
          <button type="button" className="button button--secondary" disabled={preview.isPending || url.trim() === ''} onClick={runPreview}>
            {preview.isPending ? 'Fetching…' : 'Preview'}
          </button>
        ) : null}
        <button type="submit" className="button" disabled={create.isPending}>
          {create.isPending ? 'Saving…' : 'Save source'}
        </button>
        {onCancel ? (
          <button type="button" className="button button--ghost" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
      <FormError error={create.error} fields={FIELDS} />
      {preview.error && !urlError && preview.variables?.url === url.trim() ? <FormError error={preview.error} fields={['url', 'type']} /> : null}
      {shownPreview ? <PreviewResult preview={shownPreview} stale={previewedUrl !== url.trim()} /> : null}
      {isFeedType(type) ? <p className="muted small">Saved feeds are polled within a minute, then on their cadence; every new item becomes a signal.</p> : null}
    </form>
  );
}
