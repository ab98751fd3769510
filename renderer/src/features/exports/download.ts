import { api, ApiError, toApiError } from '../../api/client';

/**
 * Downloads an export with the bearer token (the app's API client) and saves it under the name the
 * server gives (Content-Disposition), reading the body as a stream so the UI can show the bytes
 * received; the export's own headers say how many rows matched and whether the 5000-row cap hit.
 */

export interface DownloadProgress {
  received: number;
  /** Content-Length when the server sent one (JSON answers); null for streamed CSV. */
  total: number | null;
}

export interface DownloadResult {
  filename: string;
  bytes: number;
  /** X-Export-Total: rows that matched; null when the export does not say. */
  rows: number | null;
  /** X-Export-Capped: true when more rows matched than the file holds. */
  capped: boolean;
  /** The file as text (the full export is checked for capped collections). */
  text: string;
}

/** The chunks as one UTF-8 string (a multi-byte character may straddle two chunks). */
function decode(chunks: readonly Uint8Array[]): string {
  const decoder = new TextDecoder();
  return chunks.map((c, i) => decoder.decode(c, { stream: i < chunks.length - 1 })).join('');
}

type StreamCall = Promise<{ data?: ReadableStream<Uint8Array> | null; error?: unknown; response: Response }>;

/** The file name of a Content-Disposition header: the RFC 6266 UTF-8 form first, then the plain one. */
export function filenameOf(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (utf8) {
    try {
      return decodeURIComponent(utf8[1].trim());
    } catch {
      /* fall through to the plain name */
    }
  }
  const plain = /filename="([^"]*)"/i.exec(disposition) ?? /filename=([^;]+)/i.exec(disposition);
  return plain ? plain[1].trim() : fallback;
}

/** Hands a finished file to the browser's download (an object URL on a temporary link). */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The download has started from the link; the URL can go once this turn ends.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

async function readAll(body: ReadableStream<Uint8Array>, total: number | null, onProgress: (p: DownloadProgress) => void): Promise<Uint8Array[]> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onProgress({ received, total });
  }
  return chunks;
}

/** Runs one export request (`call` is an api.GET with parseAs 'stream') and saves what it answers. */
export async function downloadExport(call: () => StreamCall, fallbackName: string, onProgress: (p: DownloadProgress) => void): Promise<DownloadResult> {
  let result: Awaited<StreamCall>;
  try {
    result = await call();
  } catch {
    throw new ApiError(0, 'network_error', 'Desk is not reachable. Is it still running?');
  }
  const { response } = result;
  if (!response.ok || result.error !== undefined || !result.data) throw toApiError(response.status, result.error);
  const length = Number(response.headers.get('content-length'));
  const chunks = await readAll(result.data, Number.isFinite(length) && length > 0 ? length : null, onProgress);
  const type = response.headers.get('content-type') ?? 'application/octet-stream';
  const blob = new Blob(chunks as BlobPart[], { type });
  const filename = filenameOf(response.headers.get('content-disposition'), fallbackName);
  saveFile(blob, filename);
  const rows = response.headers.get('x-export-total');
  return {
    filename,
    bytes: blob.size,
    rows: rows === null ? null : Number(rows),
    capped: response.headers.get('x-export-capped') === 'true',
    text: decode(chunks),
  };
}

export type ExportFormat = 'csv' | 'json';

/** The list exports the Data section offers, each as a typed request. */
export const EXPORTS = {
  sources: { label: 'Sources', description: 'Health, keyword filters and 7-day signal rate.', call: (format: ExportFormat) => api.GET('/api/v1/workspace/sources-export', { params: { query: { format } }, parseAs: 'stream' }) },
  signals: { label: 'Signals', description: 'Every signal with its source, its published and received times.', call: (format: ExportFormat) => api.GET('/api/v1/workspace/signals-export', { params: { query: { format } }, parseAs: 'stream' }) },
  tasks: { label: 'Tasks', description: 'Every task, done and archived ones too, with its tags, assignee and cost.', call: (format: ExportFormat) => api.GET('/api/v1/workspace/tasks-export', { params: { query: { format } }, parseAs: 'stream' }) },
  outputs: { label: 'Outputs', description: 'Every output with its tags, status, author and content.', call: (format: ExportFormat) => api.GET('/api/v1/workspace/artifacts-export', { params: { query: { format } }, parseAs: 'stream' }) },
  decisions: { label: 'Decisions', description: 'Approved and archived outputs (briefs left out).', call: (format: ExportFormat) => api.GET('/api/v1/workspace/decisions-export', { params: { query: { format } }, parseAs: 'stream' }) },
  memory: { label: 'Memory', description: 'Every memory entry with its tags and usage.', call: (format: ExportFormat) => api.GET('/api/v1/workspace/memory-export', { params: { query: { format } }, parseAs: 'stream' }) },
} as const;
export type ListExport = keyof typeof EXPORTS;

export const activityExport = (format: ExportFormat, since?: string, until?: string) =>
  api.GET('/api/v1/workspace/activity-export', { params: { query: { format, since, until } }, parseAs: 'stream' });
export const staleTasksExport = (format: ExportFormat, thresholdDays: number) =>
  api.GET('/api/v1/workspace/stale-tasks-export', { params: { query: { format, thresholdDays } }, parseAs: 'stream' });
/** The cost export's tables: each is a file of its own (one CSV holds one table). */
export const COST_TABLES = [
  { value: 'daily', label: 'Daily spend (30 days)' },
  { value: 'byTask', label: 'By task' },
  { value: 'bySource', label: 'By source' },
  { value: 'byAssignee', label: 'By assignee' },
] as const;
export type CostTable = (typeof COST_TABLES)[number]['value'];
export const costExport = (format: ExportFormat, table: CostTable) => api.GET('/api/v1/workspace/cost-export', { params: { query: { format, table } }, parseAs: 'stream' });
export const fullExport = () => api.GET('/api/v1/workspace/export', { parseAs: 'stream' });
