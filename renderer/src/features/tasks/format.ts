import type { Tone } from '../../components/Badge';

/** Display helpers of the tasks area (pure; tested in format.test.ts). */

/** Tags typed as a comma or space separated list: trimmed, lower-cased, empty parts and repeats dropped. */
export function parseTags(input: string): string[] {
  const out: string[] = [];
  for (const part of input.split(/[,\s]+/u)) {
    const tag = part.trim().toLowerCase();
    if (tag && !out.includes(tag)) out.push(tag);
  }
  return out;
}

/** `in_progress` -> `in progress`. */
export const statusLabel = (status: string) => status.replace(/_/gu, ' ');

export function statusTone(status: string): Tone {
  if (status === 'done') return 'success';
  if (status === 'needs_input') return 'warning';
  if (status === 'in_progress') return 'info';
  return 'neutral';
}

export function priorityTone(priority: string | null): Tone {
  if (priority === 'urgent') return 'danger';
  if (priority === 'high') return 'warning';
  return 'neutral';
}

/** The full URL of a share path served by the desk (`/share/work-log/<token>`), for copying. */
export const shareUrl = (baseUrl: string, path: string) => `${baseUrl.replace(/\/$/u, '')}${path}`;
