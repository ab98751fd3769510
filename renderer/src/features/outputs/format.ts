import type { Tone } from '../../components/Badge';
import type { Schema } from '../../api/client';

type ArtifactStatus = Schema<'ArtifactStatus'>;
type ApprovalAttention = Schema<'ApprovalAttention'>;

export const outputStatusLabel = (s: ArtifactStatus): string => ({ ready: 'ready for review', approved: 'approved', archived: 'archived' })[s];
export const outputStatusTone = (s: ArtifactStatus): Tone => ({ ready: 'info', approved: 'success', archived: 'neutral' })[s] as Tone;
export const attentionTone = (a: ApprovalAttention): Tone => ({ fresh: 'neutral', watch: 'warning', overdue: 'danger' })[a] as Tone;

/** "waiting 5.5 h" / "waiting 3 d" for a ready output. */
export function waitingLabel(hours: number): string {
  if (hours < 1) return 'waiting under an hour';
  if (hours < 48) return `waiting ${Math.round(hours)} h`;
  return `waiting ${Math.round(hours / 24)} d`;
}

/** "under 1 h" / "5 h" / "3 d" for a duration in hours; "–" when there is none. */
export function hoursLabel(hours: number | null): string {
  if (hours === null) return '–';
  if (hours < 1) return 'under 1 h';
  if (hours < 48) return `${Math.round(hours)} h`;
  return `${Math.round(hours / 24)} d`;
}
