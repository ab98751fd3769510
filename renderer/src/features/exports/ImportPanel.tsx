import { useState } from 'react';
import { api, unwrap, type Schema } from '../../api/client';
import { useDeskMutation } from '../../api/mutation';
import { queryKeys } from '../../api/query-keys';
import { FormError } from '../../components/FormError';
import { SettingRow } from '../../components/Section';
import { formatBytes, plural } from '../../lib/format';

type ImportReport = Schema<'ImportReport'>;
type Categories = { sources: boolean; signals: boolean; memory: boolean };
type Category = keyof Categories;

/** The import's body limit (server/app.ts LARGE_BODY_LIMITS, 64 MB as body-parser counts it; other routes take 1 MB). */
export const IMPORT_BODY_LIMIT = 64 * 1024 * 1024;
const CATEGORIES: { key: Category; label: string }[] = [
  { key: 'sources', label: 'Sources' },
  { key: 'signals', label: 'Signals' },
  { key: 'memory', label: 'Memory' },
];

interface PickedFile {
  name: string;
  /** Only what the import reads: the rest of an export (tasks, outputs, activity) is left out of the upload. */
  data: Record<string, unknown>;
}

/** Reads a picked file as an export: JSON, an object; keeps format, version, exportedAt and the three collections. */
export function readExportFile(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('This file is not JSON. Pick the file Data > Everything downloads (desk-export.json).');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('This file is not a Desk export. Pick the file Data > Everything downloads.');
  const x = parsed as Record<string, unknown>;
  return { format: x.format, version: x.version, exportedAt: x.exportedAt, sources: x.sources, signals: x.signals, memory: x.memory };
}

function bodyFor(file: PickedFile, categories: Categories, dryRun: boolean) {
  const data = { ...file.data };
  // Unchecked collections are not uploaded at all: smaller bodies, and the server skips them anyway.
  for (const c of CATEGORIES) if (!categories[c.key]) delete data[c.key];
  return { data, categories, dryRun };
}

const sizeOf = (body: unknown) => new TextEncoder().encode(JSON.stringify(body)).length;

/** A picked file's text (FileReader: every browser and the test DOM have it). */
function textOf(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error(`Could not read ${file.name}`));
    reader.readAsText(file);
  });
}

function Report({ report }: { report: ImportReport }) {
  const { added, skipped } = report;
  const verb = report.dryRun ? 'Would add' : 'Added';
  const skippedTotal = CATEGORIES.reduce((n, c) => n + skipped[c.key].duplicate + skipped[c.key].invalid, 0);
  return (
    <div className="import__report" aria-label={report.dryRun ? 'Import preview' : 'Import report'} role="region">
      <p>
        <strong>{verb}:</strong> {plural(added.sources, 'source')}, {plural(added.signals, 'signal')}, {plural(added.memory, 'memory entry', 'memory entries')}.
        {report.unlinkedSignals > 0 ? ` ${plural(report.unlinkedSignals, 'signal')} without a source (their source is neither in the file nor here).` : ''}
      </p>
      {skippedTotal > 0 ? (
        <>
          <ul className="import__counts" aria-label="Skipped">
            {CATEGORIES.filter((c) => skipped[c.key].duplicate + skipped[c.key].invalid > 0).map((c) => (
              <li key={c.key}>
                {c.label}: {skipped[c.key].duplicate} already here, {skipped[c.key].invalid} invalid
              </li>
            ))}
          </ul>
          <ul className="import__skipped" aria-label="Skipped items">
            {report.skippedItems.map((s) => (
              <li key={`${s.category}-${s.index}-${s.reason}`}>
                {s.category} #{s.index + 1} ({s.reason === 'duplicate' ? 'already here' : `invalid${s.field ? `: ${s.field}` : ''}`}): {s.message}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p>Nothing skipped.</p>
      )}
    </div>
  );
}

/**
 * Import: pick an export file, see what would be added and skipped (a dry run), then import it.
 * Nothing is written before Import is pressed; the server writes all of it or nothing.
 */
export function ImportPanel() {
  const [file, setFile] = useState<PickedFile | null>(null);
  const [categories, setCategories] = useState<Categories>({ sources: true, signals: true, memory: true });
  const [problem, setProblem] = useState<string | null>(null);
  const send = (vars: ReturnType<typeof bodyFor>) => unwrap(api.POST('/api/v1/workspace/import', { body: vars }));
  const preview = useDeskMutation<ImportReport, ReturnType<typeof bodyFor>>({ mutationFn: send, affects: [], logged: false });
  const run = useDeskMutation<ImportReport, ReturnType<typeof bodyFor>>({ mutationFn: send, affects: [queryKeys.sources.all, queryKeys.signals.all, queryKeys.memory.all] });

  const ask = (picked: PickedFile, cats: Categories) => {
    run.reset();
    const body = bodyFor(picked, cats, true);
    const size = sizeOf(body);
    if (size > IMPORT_BODY_LIMIT) {
      preview.reset();
      setProblem(`The chosen collections come to ${formatBytes(size)}; Desk takes at most ${formatBytes(IMPORT_BODY_LIMIT)} per import. Untick a collection and import the rest in a second pass.`);
      return;
    }
    setProblem(null);
    preview.mutate(body);
  };

  const pick = async (picked: File | undefined) => {
    setFile(null);
    preview.reset();
    run.reset();
    if (!picked) return;
    try {
      const data = readExportFile(await textOf(picked));
      const next = { name: picked.name, data };
      setFile(next);
      ask(next, categories);
    } catch (err) {
      setProblem(err instanceof Error ? err.message : String(err));
    }
  };

  const toggle = (key: Category, on: boolean) => {
    const next = { ...categories, [key]: on };
    setCategories(next);
    if (file) ask(file, next);
  };

  const nothingChosen = !categories.sources && !categories.signals && !categories.memory;
  return (
    <SettingRow
      title="Import"
      description="Bring memory, signals and sources from another desk's export (Everything). You see what would be added and skipped before anything is written; items already here are skipped."
    >
      <div className="stack">
        <label className="field__label">
          Export file
          <input type="file" accept=".json,application/json" aria-label="Export file" onChange={(e) => void pick(e.target.files?.[0])} />
        </label>
        <div className="inline-form" role="group" aria-label="What to import">
          {CATEGORIES.map((c) => (
            <label className="checkbox" key={c.key}>
              <input type="checkbox" checked={categories[c.key]} disabled={run.isPending} onChange={(e) => toggle(c.key, e.target.checked)} />
              {c.label}
            </label>
          ))}
        </div>
        {problem ? (
          <p className="form-error" role="alert">
            {problem}
          </p>
        ) : null}
        <span className="save-status" role="status" aria-live="polite">
          {preview.isPending ? `Checking ${file?.name ?? 'the file'}…` : run.isPending ? 'Importing…' : ''}
        </span>
        <FormError error={preview.error} />
        {preview.data && !run.data ? <Report report={preview.data} /> : null}
        {preview.data && !run.data ? (
          <div className="inline-form">
            <button
              type="button"
              className="button button--primary"
              disabled={run.isPending || nothingChosen || preview.data.added.sources + preview.data.added.signals + preview.data.added.memory === 0}
              aria-busy={run.isPending}
              onClick={() => file && run.mutate(bodyFor(file, categories, false))}
            >
              Import
            </button>
          </div>
        ) : null}
        <FormError error={run.error} />
        {run.data ? <Report report={run.data} /> : null}
      </div>
    </SettingRow>
  );
}
