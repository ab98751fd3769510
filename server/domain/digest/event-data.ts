import type { DigestDelivery, DigestMuteReason, DigestTrigger } from './rules';

/** A member's dashboard preferences changed (PUT) or were reset (DELETE); `fields` names what changed (empty on reset). */
export interface DashboardPrefsChangedData {
  userId: string;
  fields: string[];
}

/** A digest went out to one recipient (the daily schedule or a one-shot preview). */
export interface DigestSentData {
  trigger: DigestTrigger;
  userId: string;
  recipientLabel: string;
  subject: string;
  /** smtp (DESK_SMTP_URL) or outbox (an .eml file in the data folder's outbox/). */
  delivery: DigestDelivery;
  /** @isInt */
  approvalsWaiting: number;
}

/** A recipient's digest was muted by their preferences or had no address. */
export interface DigestMutedData {
  trigger: DigestTrigger;
  userId: string;
  recipientLabel: string;
  reason: DigestMuteReason;
}
