import type { Schema } from '../../api/client';
import type { DigestSection } from '../preferences/api';

/** Labels of the digest's vocabulary, shared by the Digest section's parts. */

export const SECTION_LABELS: Record<DigestSection, { label: string; description: string }> = {
  approvals: { label: 'Approvals waiting', description: 'Outputs waiting for a decision, most urgent first' },
  loop: { label: 'What the loop did', description: 'Cycles run, tasks and outputs made' },
  spend: { label: 'Spend vs cap', description: 'Yesterday’s spend against the daily cap' },
  spikes: { label: 'Cost spikes', description: 'Tasks, sources, tags and people spending unusually' },
  'quiet-sources': { label: 'Quiet sources', description: 'Sources that stopped sending signals' },
};

type Reason = Schema<'RecipientGating'>['reason'];

export const REASON_LABELS: Record<Reason, string> = {
  ready: 'Would send',
  quiet_weekend: 'Quiet weekend',
  quiet_hours: 'Quiet hours',
  no_sections: 'No sections chosen',
  no_address: 'No address',
  nothing_to_report: 'Nothing to report',
};

export const TRIGGER_LABELS: Record<Schema<'DigestAuditEntry'>['trigger'], string> = {
  schedule: 'Daily run',
  preview: 'Preview sent',
  preferences: 'Preferences changed',
};

export const DELIVERY_LABELS: Record<NonNullable<Schema<'DigestAuditEntry'>['delivery']>, string> = {
  smtp: 'sent by SMTP',
  outbox: 'written to the outbox folder',
  failed: 'refused by the SMTP server',
};

/** `8` → `08:00`. */
export const hourLabel = (h: number) => `${String(h).padStart(2, '0')}:00`;

export const HOURS = Array.from({ length: 24 }, (_, h) => h);

/** The day `days` after `day` (`YYYY-MM-DD`, calendar arithmetic, no timezone involved). */
export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
