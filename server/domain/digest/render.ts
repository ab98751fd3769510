import { DateTime } from 'luxon';
import { escapeHtml } from '../../core/html';
import type { DigestSection } from '../dashboard-prefs/rules';
import type { DigestContent } from './content';

/**
 * The digest email: a subject that says what waits, table-based HTML with inline styles (what
 * Outlook, Gmail and Apple Mail all render: no <style> blocks, no flex or grid, widths on tables),
 * and a plain-text alternative with the same facts.
 */

export interface RenderedDigest {
  subject: string;
  html: string;
  text: string;
}

export interface RenderInput {
  content: DigestContent;
  /** The instant the digest is for (the simulated one in a preview): its workspace day is in the subject. */
  at: Date;
  timezone: string;
  recipientName: string;
  sections: readonly DigestSection[];
  /** The desk's own address, for links (http://127.0.0.1:4477), or '' when unknown. */
  deskUrl: string;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const hours = (h: number | null) => (h === null ? '' : h < 48 ? `${Math.round(h)} h` : `${Math.round(h / 24)} d`);

export function digestSubject(content: DigestContent, at: Date, timezone: string): string {
  const day = DateTime.fromJSDate(at, { zone: timezone }).toFormat('ccc d LLL');
  const n = content.approvals.waiting;
  const head = n === 0 ? 'Nothing waits for you' : `${plural(n, 'approval')} ${n === 1 ? 'waits' : 'wait'}`;
  return `${head} · Desk digest for ${day}`;
}

const FONT = "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const ATTENTION_COLORS: Record<string, string> = { overdue: '#b42318', watch: '#b54708', fresh: '#067647' };

function sectionHtml(title: string, body: string): string {
  return `<tr><td style="padding:20px 24px 4px 24px;${FONT};font-size:16px;font-weight:600;color:#101828">${escapeHtml(title)}</td></tr>
<tr><td style="padding:4px 24px 12px 24px;${FONT};font-size:14px;line-height:20px;color:#344054">${body}</td></tr>`;
}

function rowsTable(rows: string[][], widths: string[]): string {
  if (rows.length === 0) return '';
  const trs = rows
    .map((cells) => `<tr>${cells.map((c, i) => `<td${widths[i] ? ` width="${widths[i]}"` : ''} style="padding:6px 8px 6px 0;border-top:1px solid #eaecf0;${FONT};font-size:14px;color:#344054;vertical-align:top">${c}</td>`).join('')}</tr>`)
    .join('');
  return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="border-collapse:collapse">${trs}</table>`;
}

const badge = (attention: string | null) =>
  attention === null ? '' : `<span style="display:inline-block;padding:1px 6px;border-radius:8px;font-size:12px;color:#ffffff;background-color:${ATTENTION_COLORS[attention] ?? '#475467'}">${escapeHtml(attention)}</span>`;

interface Section {
  key: DigestSection;
  title: string;
  html: string;
  text: string[];
}

function buildSections(c: DigestContent, deskUrl: string, timezone: string): Section[] {
  const a = c.approvals;
  const link = (path: string, label: string) => (deskUrl ? `<a href="${escapeHtml(deskUrl + path)}" style="color:#1849a9">${escapeHtml(label)}</a>` : escapeHtml(label));
  const approvalsHtml =
    a.waiting === 0
      ? 'No output waits for a decision.'
      : `<p style="margin:0 0 8px 0"><b>${plural(a.waiting, 'output')}</b> ${a.waiting === 1 ? 'waits' : 'wait'} for a decision: ${a.overdue} overdue, ${a.watch} to watch, ${a.fresh} fresh${a.oldestWaitHours !== null ? `; the oldest has waited ${hours(a.oldestWaitHours)}` : ''}.</p>` +
        rowsTable(
          a.items.map((i) => [badge(i.attention), `${link(`/outputs/${encodeURIComponent(i.id)}`, i.title)}${i.taskTitle ? `<br><span style="color:#667085;font-size:12px">${escapeHtml(i.taskTitle)}</span>` : ''}`, escapeHtml(hours(i.ageHours)), escapeHtml(i.reviewOwner ?? 'no owner')]),
          ['70', '', '50', '110'],
        ) +
        (deskUrl ? `<p style="margin:12px 0 0 0">${link('/outputs', 'Open the review queue')}</p>` : '');
  const approvalsText =
    a.waiting === 0
      ? ['No output waits for a decision.']
      : [
          `${plural(a.waiting, 'output')} ${a.waiting === 1 ? 'waits' : 'wait'} for a decision: ${a.overdue} overdue, ${a.watch} to watch, ${a.fresh} fresh.`,
          ...a.items.map((i) => `- [${i.attention ?? 'ready'}] ${i.title}${i.taskTitle ? ` (${i.taskTitle})` : ''}, ${hours(i.ageHours)}, ${i.reviewOwner ?? 'no owner'}`),
        ];

  const l = c.loop;
  const loopLines = [
    `${plural(l.runsCompleted, 'cycle')} completed${l.runsFailed ? `, ${l.runsFailed} failed` : ''}${l.runsSkipped ? `, ${l.runsSkipped} skipped` : ''}`,
    `${plural(l.signalsReceived, 'signal')} received`,
    `${plural(l.outputsMade, 'output')} made, ${l.approvalsDecided} approved`,
    `${plural(l.tasksCreated, 'task')} created, ${l.tasksDone} done`,
  ];
  const sinceText = `Since ${DateTime.fromISO(c.since, { zone: timezone }).toFormat('ccc d LLL HH:mm')} (${timezone})`;

  const s = c.spend;
  const capLine = s.capCents === null ? 'No daily cap is set.' : `Cap ${usd(s.capCents)}: ${s.capPercent ?? 0}% used today${s.capReached ? ' (reached: scheduled cycles are paused until tomorrow)' : ''}.`;
  const spendLines = [`Today so far ${usd(s.todayCents)}, yesterday ${usd(s.yesterdayCents)}, 7-day average ${usd(s.baselineCents)}.`, capLine];

  const spikesHtml =
    c.spikes.length === 0
      ? 'No cost spike today.'
      : rowsTable(
          c.spikes.map((x) => [escapeHtml(x.dimension), escapeHtml(x.label), `${usd(x.todayCents)} vs ${usd(x.baselineCents)}/day${x.spikeRatio !== null ? ` (${x.spikeRatio}x)` : ''}`, x.acked ? 'acknowledged' : '']),
          ['80', '', '170', '90'],
        );
  const spikesText = c.spikes.length === 0 ? ['No cost spike today.'] : c.spikes.map((x) => `- ${x.dimension} ${x.label}: ${usd(x.todayCents)} vs ${usd(x.baselineCents)}/day${x.acked ? ' (acknowledged)' : ''}`);

  const quietHtml = c.quietSources.length === 0 ? 'Every feed is producing signals.' : rowsTable(c.quietSources.map((q) => [escapeHtml(q.label), `quiet for ${Math.floor(q.quietForDays)} days`]), ['', '140']);
  const quietText = c.quietSources.length === 0 ? ['Every feed is producing signals.'] : c.quietSources.map((q) => `- ${q.label}: quiet for ${Math.floor(q.quietForDays)} days`);

  return [
    { key: 'approvals', title: 'Waiting for your decision', html: approvalsHtml, text: approvalsText },
    { key: 'loop', title: 'What the desk did', html: `<p style="margin:0 0 6px 0;color:#667085;font-size:12px">${escapeHtml(sinceText)}</p>${loopLines.map(escapeHtml).join('<br>')}`, text: [sinceText, ...loopLines] },
    { key: 'spend', title: 'Spend', html: spendLines.map(escapeHtml).join('<br>'), text: spendLines },
    { key: 'spikes', title: 'Cost spikes', html: spikesHtml, text: spikesText },
    { key: 'quiet-sources', title: 'Quiet sources', html: quietHtml, text: quietText },
  ];
}

export function renderDigest(input: RenderInput): RenderedDigest {
  const subject = digestSubject(input.content, input.at, input.timezone);
  const sections = buildSections(input.content, input.deskUrl, input.timezone).filter((s) => input.sections.includes(s.key));
  const local = DateTime.fromJSDate(input.at, { zone: input.timezone });
  const hello = local.hour < 12 ? 'Good morning' : local.hour < 18 ? 'Good afternoon' : 'Good evening';
  const greeting = `${hello}, ${input.recipientName}. Here is your desk for ${local.toFormat('cccc d LLLL yyyy')}.`;
  const footer = 'You receive this as an owner or admin of this desk. Quiet weekends, quiet hours and sections: Settings > Digest.';
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background-color:#f2f4f7">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f2f4f7"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="width:600px;max-width:100%;background-color:#ffffff;border:1px solid #eaecf0;border-radius:8px">
<tr><td style="padding:24px 24px 0 24px;${FONT};font-size:12px;letter-spacing:1px;text-transform:uppercase;color:#667085">Desk digest</td></tr>
<tr><td style="padding:4px 24px 8px 24px;${FONT};font-size:20px;font-weight:700;color:#101828">${escapeHtml(subject.split(' · ')[0])}</td></tr>
<tr><td style="padding:0 24px 8px 24px;${FONT};font-size:14px;color:#475467">${escapeHtml(greeting)}</td></tr>
${sections.map((s) => sectionHtml(s.title, s.html)).join('\n')}
<tr><td style="padding:16px 24px 24px 24px;${FONT};font-size:12px;color:#98a2b3;border-top:1px solid #eaecf0">${escapeHtml(footer)}</td></tr>
</table></td></tr></table>
</body></html>`;
  const text = [greeting, '', ...sections.flatMap((s) => [s.title.toUpperCase(), ...s.text, '']), footer, ''].join('\n');
  return { subject, html, text };
}
