import { DateTime } from 'luxon';
import { inTransaction, type Trx } from '../../../db/transactions';
import { DAY_MS } from '../../core/clock';
import { afterKey, defineList, pageRequest, toPage } from '../../core/lists';
import { recordActivity } from '../activity/activity';
import { emit } from '../events/outbox';
import type { StoredPrefs } from '../dashboard-prefs/prefs-store';
import type { MemberActor } from '../members/resolve-actor';
import { resolveActor } from '../members/resolve-actor';
import { readWorkspace } from '../workspace/workspace-store';
import { gatherContent, type ContentDeps } from './content';
import { fromAddress, sendDigestMail, type MailerConfig } from './mailer';
import { renderDigest, type RenderedDigest } from './render';
import { insertAudit } from './digest-store';
import { digestPrefsOf, gateWithAddress, readRecipient, readRecipients, type DigestRecipient, type RecipientDigestPrefs, type RecipientWithPrefs } from './recipients';
import {
  AUDIT_LIMIT,
  AUDIT_SINCE_DAYS,
  checkIntParam,
  DIGEST_INTERVAL_GATE_HOURS,
  DIGEST_LOCAL_HOUR,
  DIGEST_LAST_LOCAL_HOUR,
  digestDue,
  parseSimulatedDate,
  type DigestDelivery,
  type DigestOutcome,
  type DigestMuteReason,
  type DigestReason,
  type DigestTrigger,
} from './rules';
import { runScheduledDigest, type DigestRunResult } from './digest-run';

export const DIGEST_AUDIT_LIST = defineList('GetDigestAudit', AUDIT_LIMIT.default, AUDIT_LIMIT.max);

export interface DigestDeps extends ContentDeps {
  /** Where the scheduled run reports failures (an SMTP server down is not a crash). */
  warn?: (message: string) => void;
  mail: MailerConfig;
  /** The desk's own base URL for links in the email ('' before it listens). */
  deskUrl: () => string;
}

/** A recipient as the digest endpoints show them (the address the digest goes to, and where it came from). */
export type DigestRecipientView = DigestRecipient;

export interface DigestConfigRecipient extends DigestRecipient {
  prefs: RecipientDigestPrefs;
}

export interface DigestConfig {
  /** The workspace's digest address (the owner's digest goes there), or null. */
  digestEmail: string | null;
  timezone: string;
  /** smtp when DESK_SMTP_URL is set; outbox: mails are written as .eml files to the data folder's outbox/. */
  delivery: 'smtp' | 'outbox';
  /** The production digest goes out at this hour of the workspace day. @isInt */
  localHour: number;
  /** A desk that was off at localHour sends that day's digest until this hour (18), then waits for the next morning. @isInt */
  lastLocalHour: number;
  /** At most one production digest per this many hours. @isInt */
  intervalGateHours: number;
  /** @format date-time */
  lastRunAt: string | null;
  /** When the next production digest is due (at the earliest). @format date-time */
  nextRunAt: string;
  /** Every owner and admin, with their digest preferences. */
  recipients: DigestConfigRecipient[];
}

/** One recipient's gating decision. */
export interface RecipientGating extends DigestRecipient {
  outcome: DigestOutcome;
  reason: DigestReason;
  detail: string;
}

export interface RecipientsGating {
  /** The instant decided for (simulatedDate, or now). @format date-time */
  at: string;
  /** That instant in workspace time, e.g. "Sun 8 Mar 2026 08:00". */
  localTime: string;
  timezone: string;
  simulated: boolean;
  /** The workspace's 22-hour gate (production only; previews bypass it). */
  intervalGate: {
    /** @format date-time */
    lastRunAt: string | null;
    /** @format date-time */
    opensAt: string | null;
    /** Whether a production digest may go out at `at` as far as the gate goes. */
    open: boolean;
  };
  recipients: RecipientGating[];
}

export interface DigestPreviewGating {
  /** @format date-time */
  at: string;
  localTime: string;
  simulated: boolean;
  outcome: DigestOutcome;
  reason: DigestReason;
  detail: string;
}

export interface DigestPreview {
  recipient: DigestRecipient;
  subject: string;
  html: string;
  /** The plain-text alternative sent with the HTML. */
  text: string;
  gating: DigestPreviewGating;
}

export interface DigestPreviewSent {
  recipient: DigestRecipient;
  outcome: DigestOutcome;
  reason: DigestReason;
  detail: string;
  /** The subject sent; null when muted. */
  subject: string | null;
  /** smtp, outbox or failed (the SMTP server refused; see error); null when muted. */
  delivery: DigestDelivery | null;
  /** The SMTP error, when delivery failed. */
  error: string | null;
  /** The digest-audit entry recorded. */
  auditId: string;
}

export interface DigestAuditEntry {
  id: string;
  /** @format date-time */
  createdAt: string;
  detail: string;
  outcome: DigestOutcome;
  /** The recipient's name. */
  recipientLabel: string;
  /** The address used, or null. */
  recipientEmail: string | null;
  userId: string;
  /** schedule (the daily run), preview (POST /workspace/digest-preview) or preferences (a change of the member's digest preferences). */
  trigger: DigestTrigger;
  reason: DigestReason;
  delivery: DigestDelivery | null;
  subject: string | null;
}

export interface DigestAuditPage {
  entries: DigestAuditEntry[];
  nextCursor: string | null;
}

const localTimeOf = (at: Date, timezone: string) => DateTime.fromJSDate(at, { zone: timezone }).toFormat('ccc d LLL yyyy HH:mm');
const viewOf = (r: RecipientWithPrefs): DigestRecipient => ({ userId: r.userId, name: r.name, role: r.role, address: r.address, addressSource: r.addressSource });

/** The next time the production digest is due, at the earliest: the first candidate instant (now, the gate opening, the next 08:00s) that digestDue accepts. */
export function nextRunAt(now: Date, timezone: string, lastRunAt: string | null, lastRunDay: string | null): string {
  const { gateOpensAt } = digestDue(now, timezone, lastRunAt, lastRunDay);
  const today = DateTime.fromJSDate(now, { zone: timezone }).set({ hour: DIGEST_LOCAL_HOUR, minute: 0, second: 0, millisecond: 0 });
  const candidates = [now.getTime(), ...(gateOpensAt ? [Date.parse(gateOpensAt)] : []), ...[0, 1, 2].map((n) => today.plus({ days: n }).set({ hour: DIGEST_LOCAL_HOUR }).toMillis())]
    .filter((t) => t >= now.getTime())
    .sort((a, b) => a - b);
  const first = candidates.find((t) => digestDue(new Date(t), timezone, lastRunAt, lastRunDay).due) ?? candidates[candidates.length - 1];
  return new Date(first).toISOString();
}

/** The daily digest: configuration, gating, previews, the one-shot send, the audit and the scheduled run. */
export class DigestService {
  constructor(private readonly d: DigestDeps) {}

  private async state() {
    return this.d.db.selectFrom('digestState').select(['lastRunAt', 'lastRunDay']).where('id', '=', 1).executeTakeFirstOrThrow();
  }

  async config(): Promise<DigestConfig> {
    const ws = await readWorkspace(this.d.db);
    const state = await this.state();
    const recipients = await readRecipients(this.d.db);
    return {
      digestEmail: ws.digestEmail,
      timezone: ws.timezone,
      delivery: this.d.mail.smtpUrl ? 'smtp' : 'outbox',
      localHour: DIGEST_LOCAL_HOUR,
      lastLocalHour: DIGEST_LAST_LOCAL_HOUR,
      intervalGateHours: DIGEST_INTERVAL_GATE_HOURS,
      lastRunAt: state.lastRunAt,
      nextRunAt: nextRunAt(this.d.clock.now(), ws.timezone, state.lastRunAt, state.lastRunDay),
      recipients: recipients.map((r) => ({ ...viewOf(r), prefs: digestPrefsOf(r.prefs) })),
    };
  }

  async recipientsGating(simulatedDate?: string): Promise<RecipientsGating> {
    const ws = await readWorkspace(this.d.db);
    const at = parseSimulatedDate(simulatedDate, this.d.clock.now(), ws.timezone);
    const state = await this.state();
    const gate = digestDue(at, ws.timezone, state.lastRunAt, state.lastRunDay);
    const recipients = await readRecipients(this.d.db);
    return {
      at: at.toISOString(),
      localTime: localTimeOf(at, ws.timezone),
      timezone: ws.timezone,
      simulated: simulatedDate !== undefined,
      intervalGate: { lastRunAt: state.lastRunAt, opensAt: gate.gateOpensAt, open: gate.gateOpensAt === null || at.getTime() >= Date.parse(gate.gateOpensAt) },
      recipients: recipients.map((r) => ({ ...viewOf(r), ...gateWithAddress(r, at, ws.timezone) })),
    };
  }

  /** Renders what the recipient would get at `simulatedDate` (or now): no sending, no logging. */
  async preview(userId: string | undefined, simulatedDate?: string): Promise<DigestPreview> {
    const ws = await readWorkspace(this.d.db);
    const at = parseSimulatedDate(simulatedDate, this.d.clock.now(), ws.timezone);
    const recipient = await readRecipient(this.d.db, userId);
    const { subject, html, text } = await this.render(recipient, at, ws.timezone);
    const decision = gateWithAddress(recipient, at, ws.timezone);
    return { recipient: viewOf(recipient), subject, html, text, gating: { at: at.toISOString(), localTime: localTimeOf(at, ws.timezone), simulated: simulatedDate !== undefined, ...decision } };
  }

  /**
   * A one-shot digest now: the recipient's preferences decide exactly as in production (a muted
   * recipient gets nothing and the mute is recorded); the 22-hour gate is bypassed and not moved.
   */
  async sendPreview(userId: string | undefined): Promise<DigestPreviewSent> {
    const ws = await readWorkspace(this.d.db);
    const now = this.d.clock.now();
    const recipient = await readRecipient(this.d.db, userId);
    const decision = gateWithAddress(recipient, now, ws.timezone);
    const base = { trigger: 'preview' as const, userId: recipient.userId, recipientLabel: recipient.name, recipientEmail: recipient.address };
    if (decision.outcome === 'muted') {
      const auditId = await inTransaction(this.d.db, async (trx) => {
        const actor = await resolveActor(trx);
        const id = await insertAudit(trx, this.d.clock, { ...base, outcome: 'muted', reason: decision.reason, delivery: null, subject: null, detail: `Preview: ${decision.detail}` });
        await recordActivity(trx, this.d.clock, { kind: 'digest.preview', detail: `Digest preview for ${recipient.name} muted: ${decision.detail}`, actor, entityType: 'member', entityId: recipient.userId });
        await emit(trx, this.d.clock, 'digest.muted', { trigger: 'preview', userId: recipient.userId, recipientLabel: recipient.name, reason: decision.reason as DigestMuteReason });
        return id;
      });
      return { recipient: viewOf(recipient), ...decision, subject: null, delivery: null, error: null, auditId };
    }
    const rendered = await this.render(recipient, now, ws.timezone);
    const sent = await sendDigestMail(this.d.mail, { from: fromAddress(ws.digestEmail), to: recipient.address!, subject: rendered.subject, html: rendered.html, text: rendered.text }, now);
    const detail = sent.delivery === 'failed' ? `Preview sent to ${recipient.address}: the SMTP server refused it (${sent.error})` : `Preview sent to ${recipient.address} (${sent.delivery})`;
    const auditId = await inTransaction(this.d.db, async (trx) => {
      const actor = await resolveActor(trx);
      const id = await insertAudit(trx, this.d.clock, { ...base, outcome: 'would_send', reason: 'ready', delivery: sent.delivery, subject: rendered.subject, detail });
      await recordActivity(trx, this.d.clock, { kind: 'digest.preview', detail: `Digest preview for ${recipient.name}: ${detail}`, actor, entityType: 'member', entityId: recipient.userId });
      if (sent.delivery !== 'failed') {
        await emit(trx, this.d.clock, 'digest.sent', { trigger: 'preview', userId: recipient.userId, recipientLabel: recipient.name, subject: rendered.subject, delivery: sent.delivery, approvalsWaiting: rendered.approvalsWaiting });
      }
      return id;
    });
    return { recipient: viewOf(recipient), outcome: 'would_send', reason: 'ready', detail, subject: rendered.subject, delivery: sent.delivery, error: sent.error, auditId };
  }

  /** The digest-audit entries of the last `sinceDays` days, newest first. */
  async audit(query: { sinceDays?: number; limit?: number; cursor?: string }): Promise<DigestAuditPage> {
    const sinceDays = checkIntParam('sinceDays', query.sinceDays ?? AUDIT_SINCE_DAYS.default, AUDIT_SINCE_DAYS);
    const page = pageRequest(DIGEST_AUDIT_LIST, query, ['string', 'string']);
    const since = new Date(this.d.clock.now().getTime() - sinceDays * DAY_MS).toISOString();
    let q = this.d.db.selectFrom('digestAudit').selectAll().where('createdAt', '>=', since);
    if (page.after) q = q.where(afterKey(['created_at', 'id'], page.after, 'desc'));
    const rows = await q.orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(page.limit + 1).execute();
    const { rows: served, nextCursor } = toPage(rows, page.limit, (r) => [r.createdAt, r.id]);
    return { entries: served.map((r) => ({ id: r.id, createdAt: r.createdAt, detail: r.detail, outcome: r.outcome, recipientLabel: r.recipientLabel, recipientEmail: r.recipientEmail, userId: r.userId, trigger: r.trigger, reason: r.reason as DigestReason, delivery: r.delivery, subject: r.subject })), nextCursor };
  }

  /** The daily job: runs the production digest when due (see digestDue). */
  async runScheduled(): Promise<DigestRunResult | null> {
    return runScheduledDigest(this.d);
  }

  /** Hook of the dashboard-prefs area: a member's digest preferences changed; an owner or admin gets a gating-change record. */
  async recordPrefsGating(trx: Trx, actor: MemberActor, prefs: StoredPrefs): Promise<void> {
    if (actor.role !== 'owner' && actor.role !== 'admin') return;
    const ws = await readWorkspace(trx);
    const user = await trx.selectFrom('users').select(['email']).where('id', '=', actor.userId).executeTakeFirst();
    const address = (actor.role === 'owner' ? ws.digestEmail : null) ?? user?.email ?? null;
    const now = this.d.clock.now();
    const decision = gateWithAddress({ address, prefs }, now, ws.timezone);
    const hours = prefs.digestQuietHoursStart === null ? 'no quiet hours' : `quiet hours ${prefs.digestQuietHoursStart}:00-${prefs.digestQuietHoursEnd}:00`;
    const detail = `Preferences changed (quiet weekends ${prefs.digestQuietWeekends ? 'on' : 'off'}, ${hours}, ${prefs.digestPersonalSections.length} sections): ${decision.outcome === 'muted' ? `muted now (${decision.detail.replace(/^Muted: /, '')})` : `would send now (${localTimeOf(now, ws.timezone)})`}`;
    await insertAudit(trx, this.d.clock, { trigger: 'preferences', userId: actor.userId, recipientLabel: actor.label, recipientEmail: address, outcome: decision.outcome, reason: decision.reason, delivery: null, subject: null, detail });
  }

  private async render(r: RecipientWithPrefs, at: Date, timezone: string): Promise<RenderedDigest & { approvalsWaiting: number }> {
    const state = await this.state();
    const content = await gatherContent(this.d, state.lastRunAt);
    return { ...renderDigest({ content, at, timezone, recipientName: r.name, sections: r.prefs.digestPersonalSections, deskUrl: this.d.deskUrl() }), approvalsWaiting: content.approvals.waiting };
  }

}
