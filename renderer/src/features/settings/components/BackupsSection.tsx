import { useQuery } from '@tanstack/react-query';
import { FormError } from '../../../components/FormError';
import { QueryState } from '../../../components/Page';
import { Section, SettingRow } from '../../../components/Section';
import { formatBytes, formatDateTime, plural } from '../../../lib/format';
import { backupsQuery, useCreateBackup, type BackupList } from '../api';

function BackUpNow() {
  const create = useCreateBackup();
  return (
    <SettingRow title="Back up now" description="An online copy of the database: the desk keeps working while it is written.">
      <div className="inline-form">
        <button type="button" className="button" disabled={create.isPending} aria-busy={create.isPending} onClick={() => create.mutate()}>
          {create.isPending ? 'Backing up…' : 'Back up now'}
        </button>
        <span className={`save-status${create.isSuccess ? ' save-status--done' : ''}`} role="status" aria-live="polite">
          {create.isPending ? 'Writing the backup…' : create.isSuccess ? `Saved ${create.data.name}` : ''}
        </span>
      </div>
      <FormError error={create.error} />
    </SettingRow>
  );
}

function BackupTable({ list }: { list: BackupList }) {
  if (list.backups.length === 0) {
    return <p className="empty backups__empty">No backups yet. The first daily backup is made within a day; or use Back up now.</p>;
  }
  return (
    <div className="backups__table">
      <table className="table" aria-label="Backups">
        <thead>
          <tr>
            <th scope="col">Made</th>
            <th scope="col">File</th>
            <th scope="col" className="backups__size">
              Size
            </th>
          </tr>
        </thead>
        <tbody>
          {list.backups.map((b) => (
            <tr key={b.name}>
              <td className="nowrap" title={formatDateTime(b.createdAt, true)}>
                <time dateTime={b.createdAt}>{formatDateTime(b.createdAt)}</time>
              </td>
              <td>
                <code>{b.name}</code>
              </td>
              <td className="nowrap backups__size">{formatBytes(b.sizeBytes)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Settings > Backups: the backups on disk, their folder, how many are kept, and "Back up now". */
export function BackupsSection() {
  const list = useQuery(backupsQuery());
  const kept = list.data ? plural(list.data.kept, 'backup') : 'a number of backups';
  return (
    <Section
      id="backups"
      title="Backups"
      description={`Desk copies its database once a day and keeps the newest ${kept}; older ones are removed. Times are in your local time.`}
    >
      <BackUpNow />
      <QueryState isPending={list.isPending} error={list.error} onRetry={() => void list.refetch()} />
      {list.data ? (
        <>
          <SettingRow title="Folder" description="To restore: stop Desk, copy a backup over desk.sqlite in the data folder (removing desk.sqlite-wal and desk.sqlite-shm), and start it again.">
            <code className="backups__folder">{list.data.folder}</code>
          </SettingRow>
          <BackupTable list={list.data} />
        </>
      ) : null}
    </Section>
  );
}
