import { useState, type ReactNode } from 'react';
import { FormError } from '../../components/FormError';
import { SettingRow } from '../../components/Section';
import { formatBytes } from '../../lib/format';
import { downloadExport, type DownloadProgress, type DownloadResult, type ExportFormat } from './download';

type Call = Parameters<typeof downloadExport>[0];

type State = { kind: 'idle' } | { kind: 'running'; progress: DownloadProgress } | { kind: 'done'; result: DownloadResult; notice: string | null } | { kind: 'error'; error: unknown };

/** The cap every list export applies (the spec's 5000 rows). */
export const EXPORT_ROW_CAP = 5000;

const rowsText = (n: number) => `${n.toLocaleString()} ${n === 1 ? 'row' : 'rows'}`;

function progressText(p: DownloadProgress): string {
  if (p.received === 0) return 'Preparing the export…';
  return p.total ? `Downloading… ${formatBytes(p.received)} of ${formatBytes(p.total)}` : `Downloading… ${formatBytes(p.received)}`;
}

/**
 * One export: its format choice (when it has one), a Download button, the bytes received while it
 * downloads, then the file saved and, when the export hit its cap, a notice saying what was left out.
 */
export function ExportRow({
  title,
  description,
  formats = true,
  fallbackName,
  request,
  cappedNotice,
  invalid = null,
  children,
}: {
  title: string;
  description: ReactNode;
  /** false: JSON only (the full export). */
  formats?: boolean;
  fallbackName: (format: ExportFormat) => string;
  request: (format: ExportFormat) => ReturnType<Call>;
  /** A notice drawn from the finished download (the full export reads its collections); default: the row cap. */
  cappedNotice?: (result: DownloadResult) => string | null;
  /** Why the export cannot be asked for now (an input out of range): the button waits. */
  invalid?: string | null;
  /** Extra inputs (a window, a threshold) before the format. */
  children?: ReactNode;
}) {
  const [format, setFormat] = useState<ExportFormat>(formats ? 'csv' : 'json');
  const [state, setState] = useState<State>({ kind: 'idle' });
  const running = state.kind === 'running';
  const start = async () => {
    setState({ kind: 'running', progress: { received: 0, total: null } });
    try {
      const result = await downloadExport(() => request(format), fallbackName(format), (progress) => setState({ kind: 'running', progress }));
      const notice = cappedNotice
        ? cappedNotice(result)
        : result.capped && result.rows !== null
          ? `Capped: the file holds the first ${EXPORT_ROW_CAP.toLocaleString()} of ${result.rows.toLocaleString()} rows (exports hold at most ${EXPORT_ROW_CAP.toLocaleString()}).`
          : null;
      setState({ kind: 'done', result, notice });
    } catch (error) {
      setState({ kind: 'error', error });
    }
  };
  const label = title.toLowerCase();
  return (
    <SettingRow title={title} description={description}>
      <div className="inline-form">
        {children}
        {formats ? (
          <label className="field__label exports__format">
            Format
            <select className="input input--select" aria-label={`${title} format`} value={format} disabled={running} onChange={(e) => setFormat(e.target.value as ExportFormat)}>
              <option value="csv">CSV</option>
              <option value="json">JSON</option>
            </select>
          </label>
        ) : null}
        <button type="button" className="button" aria-label={`Download ${label}`} disabled={running || invalid !== null} aria-busy={running} onClick={() => void start()}>
          {running ? 'Downloading…' : 'Download'}
        </button>
        <span className={`save-status${state.kind === 'done' ? ' save-status--done' : ''}`} role="status" aria-live="polite" aria-label={`${title} export status`}>
          {state.kind === 'running' ? progressText(state.progress) : null}
          {state.kind === 'done'
            ? `Saved ${state.result.filename} (${state.result.rows !== null ? `${rowsText(Math.min(state.result.rows, EXPORT_ROW_CAP))}, ` : ''}${formatBytes(state.result.bytes)})`
            : null}
        </span>
      </div>
      {state.kind === 'done' && state.notice ? (
        <p className="notice exports__capped" role="note">
          {state.notice}
        </p>
      ) : null}
      <FormError error={state.kind === 'error' ? state.error : null} fields={[]} />
    </SettingRow>
  );
}
