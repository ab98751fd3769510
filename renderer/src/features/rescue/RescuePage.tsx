import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Brand } from '../../components/Brand';
import { formatDateTime } from '../../lib/format';
import { useAuth } from '../../lib/auth';
import { fetchRescueState, restoreBackup, waitForDesk, type CheckedBackup, type RescueState } from './api';
import './rescue.css';

const size = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} kB`);

function whatHappened(state: RescueState): string {
  return state.problem === 'not_a_database'
    ? 'The database file is not a SQLite database any more: something else was written over it.'
    : "SQLite's integrity check found damage in the database file (a disk error, or a copy cut short).";
}

type Step = { kind: 'idle' } | { kind: 'restoring'; name: string } | { kind: 'starting'; name: string; keptAside: string[] } | { kind: 'failed'; message: string };

/**
 * Shown instead of the app when the desk runs in rescue mode (its database failed its check at
 * start): what happened, the backups (each checked), and the newest good one restored in one click.
 */
export function RescuePage() {
  const state = useQuery({ queryKey: ['rescue'], queryFn: fetchRescueState, retry: false });
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  const restore = async (backup: CheckedBackup) => {
    setStep({ kind: 'restoring', name: backup.name });
    try {
      const answer = await restoreBackup(backup.name);
      setStep({ kind: 'starting', name: answer.restored, keptAside: answer.keptAside });
      if (!(await waitForDesk(answer.token))) throw new Error('Desk did not come back after the restore: start it again (npm start).');
      useAuth.getState().replaceToken(answer.token);
      window.location.assign('/');
    } catch (err) {
      setStep({ kind: 'failed', message: err instanceof Error ? err.message : String(err) });
    }
  };

  const data = state.data;
  const good = data?.backups.find((b) => b.name === data.newestGood) ?? null;
  return (
    <main className="rescue">
      <div className="rescue__card card card--padded">
        <Brand large />
        <h1 className="rescue__title" tabIndex={-1} ref={heading}>
          Desk's database needs a restore
        </h1>
        {state.isPending && <p className="muted">Looking at the database and its backups…</p>}
        {state.isError && (
          <p role="alert" className="text-danger">
            {state.error.message}
          </p>
        )}
        {data && (
          <>
            <p>{whatHappened(data)}</p>
            <p>
              Desk has not written to <code>{data.file}</code> and runs in rescue mode: nothing can be changed until a backup is restored. Restoring moves the damaged
              file aside (renamed with the time) and never deletes it.
            </p>
            <details className="rescue__details">
              <summary>What SQLite said (found {formatDateTime(data.detectedAt)})</summary>
              <ul>
                {data.details.map((d, i) => (
                  <li key={i}>
                    <code>{d}</code>
                  </li>
                ))}
              </ul>
            </details>
            <h2 className="rescue__subtitle">Backups</h2>
            {good ? (
              <div className="rescue__offer">
                <p>
                  The newest good backup is from <strong>{formatDateTime(good.createdAt)}</strong> ({size(good.sizeBytes)}). Everything written after it is not in it.
                </p>
                <button type="button" className="button" disabled={step.kind === 'restoring' || step.kind === 'starting'} onClick={() => void restore(good)}>
                  Restore the backup of {formatDateTime(good.createdAt)}
                </button>
              </div>
            ) : (
              <p>
                No backup passes its check. The damaged file stays as it is; copy the folder <code>{data.backupFolder}</code> and the file somewhere safe, and see README,
                "Backups".
              </p>
            )}
            <p role="status" className="rescue__status">
              {step.kind === 'restoring' && `Restoring ${step.name}…`}
              {step.kind === 'starting' && `Restored ${step.name}. The damaged file is kept as ${step.keptAside[0] ?? '(none)'}. Desk is starting…`}
            </p>
            {step.kind === 'failed' && (
              <p role="alert" className="text-danger">
                {step.message}
              </p>
            )}
            {data.backups.length > 0 && (
              <table className="table rescue__table">
                <caption className="sr-only">Backups, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Taken</th>
                    <th scope="col">Size</th>
                    <th scope="col">Check</th>
                  </tr>
                </thead>
                <tbody>
                  {data.backups.map((b) => (
                    <tr key={b.name}>
                      <td>
                        {formatDateTime(b.createdAt)} <span className="muted">({b.name})</span>
                      </td>
                      <td>{size(b.sizeBytes)}</td>
                      <td>{b.ok ? 'passes' : `fails: ${(b.problems ?? []).join('; ')}`}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <p className="muted">
              Or stop Desk and run <code>npm run restore -- &lt;backup&gt;</code> in its folder.
            </p>
          </>
        )}
      </div>
    </main>
  );
}
