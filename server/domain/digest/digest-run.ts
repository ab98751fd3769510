import { inTransaction } from '../../../db/transactions';
import { DAY_MS } from '../../core/clock';
import { recordActivity, SYSTEM_ACTOR } from '../activity/activity';
import { emit } from '../events/outbox';
import { readWorkspace } from '../workspace/workspace-store';
import { gatherContent, hasSomethingToReport } from './content';
import type { DigestDeps } from './digest-service';
import { fromAddress, sendDigestMail } from './mailer';
import { insertAudit, markDigestRun, pruneAudit, rewindDigestRun } from './digest-store';
import { gateWithAddress, readRecipients } from './recipients';
import { renderDigest } from './render';
import { AUDIT_SINCE_DAYS, digestDue, type DigestDelivery, type DigestMuteReason, type DigestOutcome, type DigestReason } from './rules';

export interface DigestRunDecision {
  userId: string;
  name: string;
  outcome: DigestOutcome;
  reason: DigestReason;
  delivery: DigestDelivery | null;
  detail: string;
}

export interface DigestRunResult {
  /** The workspace day the run was for. */
  day: string;
  ranAt: string;
  decisions: DigestRunDecision[];
}

/**
 * The production digest, when due (digestDue: 08:00 workspace time or later, not yet run today,
 * 22 hours since the last run; a last run later than the clock counts from now: rewindDigestRun). The run is claimed in a transaction first (the gate moves before
 * any mail leaves, so two looks, or a crash after sending, never send twice); then the content is
 * gathered once, each owner and admin is gated (their preferences, their address, and whether
 * there is anything to report: approvals waiting always qualify), the mails go out outside any
 * transaction, and every decision is recorded in one transaction: an audit row and a
 * digest.sent / digest.muted event per recipient and one `digest.run` activity row.
 */
export async function runScheduledDigest(d: DigestDeps): Promise<DigestRunResult | null> {
  const ws = await readWorkspace(d.db);
  const now = d.clock.now();
  const first = await d.db.selectFrom('digestState').select(['lastRunAt', 'lastRunDay']).where('id', '=', 1).executeTakeFirstOrThrow();
  if (first.lastRunAt !== null && first.lastRunAt > now.toISOString()) {
    await inTransaction(d.db, (trx) => rewindDigestRun(trx, now.toISOString()));
    return null;
  }
  if (!digestDue(now, ws.timezone, first.lastRunAt, first.lastRunDay).due) return null;
  const claim = await inTransaction(d.db, async (trx) => {
    const s = await trx.selectFrom('digestState').select(['lastRunAt', 'lastRunDay']).where('id', '=', 1).executeTakeFirstOrThrow();
    const due = digestDue(now, ws.timezone, s.lastRunAt, s.lastRunDay);
    if (!due.due) return null;
    await markDigestRun(trx, now.toISOString(), due.day);
    return { previousRunAt: s.lastRunAt, day: due.day };
  });
  if (claim === null) return null;

  const content = await gatherContent(d, claim.previousRunAt);
  const qualifies = hasSomethingToReport(content);
  const recipients = await readRecipients(d.db);
  const decisions: (DigestRunDecision & { email: string | null; subject: string | null })[] = [];
  for (const r of recipients) {
    let decision = gateWithAddress(r, now, ws.timezone);
    if (decision.outcome === 'would_send' && !qualifies) decision = { outcome: 'muted', reason: 'nothing_to_report', detail: 'Muted: no approval waits and the desk did nothing since the last digest' };
    if (decision.outcome === 'muted') {
      decisions.push({ userId: r.userId, name: r.name, email: r.address, outcome: 'muted', reason: decision.reason, delivery: null, subject: null, detail: decision.detail });
      continue;
    }
    const mail = renderDigest({ content, at: now, timezone: ws.timezone, recipientName: r.name, sections: r.prefs.digestPersonalSections, deskUrl: d.deskUrl() });
    const sent = await sendDigestMail(d.mail, { from: fromAddress(ws.digestEmail), to: r.address!, subject: mail.subject, html: mail.html, text: mail.text }, now);
    if (sent.delivery === 'failed') d.warn?.(`digest to ${r.address} failed: ${sent.error}`);
    const detail = sent.delivery === 'failed' ? `Sent to ${r.address}: the SMTP server refused it (${sent.error})` : `Sent to ${r.address} (${sent.delivery})`;
    decisions.push({ userId: r.userId, name: r.name, email: r.address, outcome: 'would_send', reason: 'ready', delivery: sent.delivery, subject: mail.subject, detail });
  }

  await inTransaction(d.db, async (trx) => {
    for (const x of decisions) {
      await insertAudit(trx, d.clock, { trigger: 'schedule', userId: x.userId, recipientLabel: x.name, recipientEmail: x.email, outcome: x.outcome, reason: x.reason, delivery: x.delivery, subject: x.subject, detail: x.detail });
      if (x.outcome === 'muted') {
        await emit(trx, d.clock, 'digest.muted', { trigger: 'schedule', userId: x.userId, recipientLabel: x.name, reason: x.reason as DigestMuteReason });
      } else if (x.delivery !== 'failed') {
        await emit(trx, d.clock, 'digest.sent', { trigger: 'schedule', userId: x.userId, recipientLabel: x.name, subject: x.subject!, delivery: x.delivery!, approvalsWaiting: content.approvals.waiting });
      }
    }
    // The audit answers at most 365 days back: older rows go with the run that passes them.
    await pruneAudit(trx, new Date(now.getTime() - (AUDIT_SINCE_DAYS.max + 1) * DAY_MS).toISOString());
    const parts = decisions.map((x) => `${x.name}: ${x.outcome === 'muted' ? x.reason.replace(/_/g, ' ') : x.delivery === 'failed' ? 'failed' : `sent (${x.delivery})`}`);
    await recordActivity(trx, d.clock, { kind: 'digest.run', detail: `Daily digest for ${claim.day}: ${parts.join('; ')}`, actor: SYSTEM_ACTOR });
  });
  return { day: claim.day, ranAt: now.toISOString(), decisions: decisions.map(({ email: _e, subject: _s, ...x }) => x) };
}
