import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, unwrap } from '../../api/client';
import { useDiskFullReports } from '../../lib/desk-mode';

/** How often the banner looks at the disk (and at once after any 507). */
export const STORAGE_POLL_MS = 30_000;

const mb = (bytes: number) => (bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GB` : `${Math.round(bytes / 1024 ** 2)} MB`);

/**
 * Says that the disk is full, how much Desk needs and that nothing saved is lost; gone by itself
 * once the desk has room again (GET /api/v1/storage).
 */
export function DiskFullBanner() {
  const storage = useQuery({ queryKey: ['storage'], queryFn: () => unwrap(api.GET('/api/v1/storage')), refetchInterval: STORAGE_POLL_MS });
  const reports = useDiskFullReports((s) => s.count);
  const { refetch } = storage;
  useEffect(() => {
    if (reports > 0) void refetch();
  }, [reports, refetch]);
  const s = storage.data;
  if (!s?.diskFull) return null;
  return (
    <div role="alert" className="notice notice--warning">
      <strong>The disk is full.</strong> Desk needs at least {mb(s.neededBytes)} free on the disk of <code>{s.dataDir}</code>
      {s.freeBytes !== null ? ` (${mb(s.freeBytes)} free now)` : ''}. Changes are refused and the loop is paused until there is room; everything saved before is
      kept. Free some space and Desk resumes by itself.
    </div>
  );
}
