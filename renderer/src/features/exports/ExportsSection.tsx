import { useState } from 'react';
import { Section } from '../../components/Section';
import { activityExport, COST_TABLES, costExport, EXPORTS, fullExport, staleTasksExport, type CostTable, type DownloadResult, type ListExport } from './download';
import { ExportRow } from './ExportRow';
import { ImportPanel } from './ImportPanel';
import './exports.css';

/** The stale-task export's threshold: the server's range (1-60 days, default 5; 422 naming thresholdDays beyond). */
const STALE_DAYS = { min: 1, max: 60, default: 5 };

/** A date input's value as the start of that day in the workspace (the API reads a date alone so). */
const dateParam = (value: string) => (value ? value : undefined);

/** The full export's collections that hit their cap, as one sentence (null when none did). */
export function fullExportNotice(result: DownloadResult): string | null {
  try {
    const file = JSON.parse(result.text) as { collections?: Record<string, { exported: number; total: number; capped: boolean }> };
    const capped = Object.entries(file.collections ?? {}).filter(([, c]) => c.capped);
    if (capped.length === 0) return null;
    return `Capped: ${capped.map(([name, c]) => `${name} holds the newest ${c.exported.toLocaleString()} of ${c.total.toLocaleString()}`).join('; ')}.`;
  } catch {
    return null;
  }
}

function ActivityExport() {
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  return (
    <ExportRow
      title="Activity log"
      description="The audit trail between two dates (empty: from the start, up to now); the most recent 5,000 rows."
      fallbackName={(f) => `activity.${f}`}
      request={(format) => activityExport(format, dateParam(since), dateParam(until))}
    >
      <label className="field__label">
        From
        <input className="input" type="date" aria-label="Activity from" value={since} onChange={(e) => setSince(e.target.value)} />
      </label>
      <label className="field__label">
        To
        <input className="input" type="date" aria-label="Activity to" value={until} onChange={(e) => setUntil(e.target.value)} />
      </label>
    </ExportRow>
  );
}

function StaleTasksExport() {
  const [days, setDays] = useState(String(STALE_DAYS.default));
  const parsed = Number(days);
  const valid = days.trim() !== '' && Number.isInteger(parsed) && parsed >= STALE_DAYS.min && parsed <= STALE_DAYS.max;
  const problem = valid ? null : `Days must be a whole number from ${STALE_DAYS.min} to ${STALE_DAYS.max}.`;
  return (
    <ExportRow
      title="Stale tasks"
      description="Queued and in-progress tasks untouched for the threshold, with their cost; pinned tasks are left out."
      fallbackName={(f) => `stale-tasks.${f}`}
      request={(format) => staleTasksExport(format, parsed)}
      invalid={problem}
    >
      <label className="field__label">
        Untouched for (days)
        <input
          className="input input--number"
          type="number"
          aria-label="Stale for days"
          min={STALE_DAYS.min}
          max={STALE_DAYS.max}
          value={days}
          aria-invalid={valid ? undefined : true}
          onChange={(e) => setDays(e.target.value)}
        />
      </label>
      {problem ? (
        <span className="field__error" role="alert">
          {problem}
        </span>
      ) : null}
    </ExportRow>
  );
}

function CostExport() {
  const [table, setTable] = useState<CostTable>('daily');
  return (
    <ExportRow
      title="Cost"
      description="Spend over all tasks, one table per file: daily spend over 30 days, or spend by task, source or assignee."
      fallbackName={(f) => `cost-${table}.${f}`}
      request={(format) => costExport(format, table)}
    >
      <label className="field__label">
        Table
        <select className="input input--select" aria-label="Cost table" value={table} onChange={(e) => setTable(e.target.value as CostTable)}>
          {COST_TABLES.map((t) => (
            <option key={t.value} value={t.value}>
              {t.label}
            </option>
          ))}
        </select>
      </label>
    </ExportRow>
  );
}

/** Settings > Data: every export (CSV or JSON) with its progress, the full JSON export, and the import of an export file. */
export function ExportsSection() {
  return (
    <Section
      id="data"
      title="Data"
      description="Take the workspace's data out as CSV or JSON, or bring memory, signals and sources in from another desk's export. Lists hold at most 5,000 rows; a capped file says so."
    >
      {(Object.keys(EXPORTS) as ListExport[]).map((key) => (
        <ExportRow key={key} title={EXPORTS[key].label} description={EXPORTS[key].description} fallbackName={(f) => `${key}.${f}`} request={EXPORTS[key].call} />
      ))}
      <CostExport />
      <ActivityExport />
      <StaleTasksExport />
      <ExportRow
        title="Everything"
        description="The whole workspace as one JSON file: profile, sources, signals, tasks, outputs, memory, recent runs and activity, and what each output was built from. No token or key is in it. This is the file Import reads."
        formats={false}
        fallbackName={() => 'desk-export.json'}
        request={() => fullExport()}
        cappedNotice={fullExportNotice}
      />
      <ImportPanel />
    </Section>
  );
}
