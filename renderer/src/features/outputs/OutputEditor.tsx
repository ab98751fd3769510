import { useBlocker } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { fieldError, FormError } from '../../components/FormError';
import { useEditOutput, type Artifact } from './api';
import { Markdown } from './Markdown';

/**
 * Edits a waiting draft in place: Markdown in a labelled textarea, a Preview tab that renders it as
 * the output will read. Save (or Ctrl+Enter) makes a new version authored by the member (POST
 * /artifacts/{id}/versions), which is what then waits for the decision. Esc or Cancel leaves with no
 * change; with unsaved changes they ask first, in place, and leaving the page asks the browser's
 * question, so an edit is never lost silently.
 */
export function OutputEditor({ output, onSaved, onClose, headingLevel = 2 }: { output: Artifact; onSaved: (created: Artifact) => void; onClose: () => void; headingLevel?: 2 | 3 }) {
  const [draft, setDraft] = useState(output.content);
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  const [asking, setAsking] = useState(false);
  const edit = useEditOutput(output.id);
  const dirty = draft !== output.content;
  const ids = useId();
  const textRef = useRef<HTMLTextAreaElement>(null);
  const keepRef = useRef<HTMLButtonElement>(null);
  const writeTabRef = useRef<HTMLButtonElement>(null);
  const previewTabRef = useRef<HTMLButtonElement>(null);

  useEffect(() => textRef.current?.focus(), []);
  useEffect(() => {
    if (asking) keepRef.current?.focus();
  }, [asking]);

  // Leaving the page (a link, the back button, closing the window) with unsaved changes asks first.
  useBlocker({ shouldBlockFn: () => dirty && !edit.isSuccess && !window.confirm('Discard your unsaved edits to this draft?'), enableBeforeUnload: () => dirty, disabled: !dirty });

  const cancel = () => (dirty ? setAsking(true) : onClose());
  const save = () => {
    if (edit.isPending) return;
    if (!dirty) return onClose();
    // The promise, not mutate's per-call callback: the new version replaces the edited one in the
    // lists at once, which can close this box before the callback would run (it never runs unmounted).
    // A failure stays in edit.error, shown below.
    edit.mutateAsync({ content: draft }).then(onSaved, () => undefined);
  };
  const switchTab = (to: 'write' | 'preview') => {
    setTab(to);
    (to === 'write' ? writeTabRef : previewTabRef).current?.focus();
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      if (asking) {
        setAsking(false);
        textRef.current?.focus();
      } else cancel();
    } else if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      save();
    }
  };
  const onTabKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      e.preventDefault();
      switchTab(tab === 'write' ? 'preview' : 'write');
    }
  };
  const H = headingLevel === 2 ? 'h2' : 'h3';
  const contentError = fieldError(edit.error, 'content');

  return (
    <section className="card card--padded output-editor" aria-labelledby={`${ids}-title`} onKeyDown={onKeyDown}>
      <H className="card__title" id={`${ids}-title`}>
        Edit “{output.title}”
      </H>
      <div className="output-editor__tabs" role="tablist" aria-label="Edit or preview">
        <button ref={writeTabRef} type="button" role="tab" id={`${ids}-write-tab`} aria-controls={`${ids}-write`} aria-selected={tab === 'write'} tabIndex={tab === 'write' ? 0 : -1} className="output-editor__tab" onClick={() => switchTab('write')} onKeyDown={onTabKey}>
          Write
        </button>
        <button ref={previewTabRef} type="button" role="tab" id={`${ids}-preview-tab`} aria-controls={`${ids}-preview`} aria-selected={tab === 'preview'} tabIndex={tab === 'preview' ? 0 : -1} className="output-editor__tab" onClick={() => switchTab('preview')} onKeyDown={onTabKey}>
          Preview
        </button>
      </div>
      <div role="tabpanel" id={`${ids}-write`} aria-labelledby={`${ids}-write-tab`} hidden={tab !== 'write'}>
        <label className="field__label" htmlFor={`${ids}-text`}>
          Draft, in Markdown
        </label>
        <textarea
          ref={textRef}
          id={`${ids}-text`}
          className="input output-editor__text"
          value={draft}
          rows={14}
          aria-describedby={`${ids}-hint`}
          aria-invalid={contentError ? true : undefined}
          onChange={(e) => setDraft(e.target.value)}
        />
        <p className="muted small" id={`${ids}-hint`}>
          Ctrl+Enter saves; Esc cancels. Saving makes a new version written by you; the one before stays in the version chain.
        </p>
        {contentError ? (
          <p className="form-error" role="alert">
            {contentError}
          </p>
        ) : null}
      </div>
      <div role="tabpanel" id={`${ids}-preview`} aria-labelledby={`${ids}-preview-tab`} hidden={tab !== 'preview'} tabIndex={0} className="output-editor__preview">
        {tab === 'preview' ? <Markdown source={draft} title={output.title} topLevel={headingLevel + 1} /> : null}
      </div>
      <FormError error={edit.error} fields={['content']} />
      {asking ? (
        <div className="confirm" role="group" aria-label="Discard your edits?">
          <span className="confirm__question">Discard your edits?</span>
          <button type="button" className="button button--danger button--small" onClick={onClose}>
            Discard edits
          </button>
          <button
            ref={keepRef}
            type="button"
            className="button button--ghost button--small"
            onClick={() => {
              setAsking(false);
              textRef.current?.focus();
            }}
          >
            Keep editing
          </button>
        </div>
      ) : (
        <div className="output-editor__actions">
          <button type="button" className="button button--small" disabled={edit.isPending} onClick={save}>
            {edit.isPending ? 'Saving…' : 'Save as a new version'}
          </button>
          <button type="button" className="button button--ghost button--small" onClick={cancel}>
            Cancel
          </button>
        </div>
      )}
    </section>
  );
}
