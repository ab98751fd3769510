/**
 * Drafts shaped as their deliverable: an email reads as an email (subject, greeting, body, a call
 * to action, sign-off), a checklist is a list of boxes to tick, a plan is steps with owners, a
 * summary says each thing once. Each is built only from the task, its signals, the memory and the
 * notes, and cites them ([S1], [M1]) as the outline does; what a reviewer needs but the reader of
 * the deliverable does not (the goal, standing preferences) goes below the deliverable.
 */
import { excerpt } from '../prompt';
import { directionLines, groupPriority, oneLine, workSteps, type Citations, type WorkItem } from './draft-parts';
import { distinctSentences, sameStatement, sentencesOf } from './text';
import { priorityRank, subjectOf } from './triage';

/** Signal kinds that are someone writing to us: an email about them is a reply. */
const REPLY_KINDS = new Set(['message', 'review', 'mention']);

/** The task's own account of itself, each sentence once: the summary's first paragraph (the signals it lists after it are cited separately). */
export function storySentences(item: WorkItem): string[] {
  const first = item.summary.trim() === '' ? '' : item.summary.split(/\n\s*\n/)[0];
  return distinctSentences(sentencesOf(excerpt(first, 1200)).map((s) => (/[.!?…]$/.test(s) ? s : `${s}.`)));
}

const memoryFacts = (c: Citations) => c.memory.map((m, i) => ({ m, cite: `[M${i + 1}]` })).filter(({ m }) => m.kind !== 'preference');
const standing = (c: Citations) => c.memory.map((m, i) => ({ m, cite: `[M${i + 1}]` })).filter(({ m }) => m.kind === 'preference' || m.kind === 'decision');
const asSentence = (text: string) => (/[.!?…]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

/** Below an email, checklist or plan: what the reviewer checks before it goes out. */
function reviewerLines(item: WorkItem, c: Citations, closing: string): string[] {
  const out = ['## Before it goes out', ''];
  if (item.goal.trim() !== '') out.push(`- **Goal:** ${oneLine(item.goal, 600)}`);
  for (const { m, cite } of standing(c)) out.push(`- Keep to the standing ${m.kind} ${cite} **${oneLine(m.title, 160)}**: ${oneLine(m.content, 240)}`);
  if (c.cited.length + c.memory.length > 0) out.push('- Check every statement against the sources it cites, below.');
  out.push(`- ${closing}`, '');
  return out;
}

export function composeEmail(item: WorkItem, c: Citations, closing: string): string[] {
  const subject = subjectOf(item.title);
  const reply = c.cited.some((s) => REPLY_KINDS.has(s.kind));
  const urgent = c.distinct.some((d) => groupPriority(d) === 'urgent');
  const out = [`**Subject:** ${reply ? 'Re: ' : ''}${oneLine(subject, 200)}`, '', 'Hello,', ''];
  out.push(reply ? 'Thank you for getting in touch.' : 'I am writing with an update.');
  const story = storySentences(item);
  if (story.length > 0) out.push(story.join(' '));
  out.push('');
  if (c.distinct.length > 0) {
    out.push(reply ? 'What we have heard from you:' : 'What we have seen:', '');
    for (const d of c.distinct) out.push(`- ${asSentence(oneLine(d.signal.title, 200))} ${d.cite}`);
    out.push('');
  }
  const facts = memoryFacts(c);
  if (facts.length > 0) out.push(facts.map(({ m, cite }) => `${asSentence(oneLine(m.content, 280))} ${cite}`).join(' '), '');
  for (const n of item.notes) out.push(`Here is what we propose: ${asSentence(oneLine(n.text, 600))}`, '');
  const ask = reply ? 'Please reply to this email to let us know whether this works for you, or with any questions.' : 'Please reply to this email with any questions, or if you would like to talk it through.';
  out.push(urgent ? `${ask} As this is urgent, a reply today would help.` : ask, '');
  out.push('Best regards,', '[Your name]', '', '---', '');
  return [...out, ...reviewerLines(item, c, closing)];
}

export function composeChecklist(item: WorkItem, c: Citations, closing: string): string[] {
  const out: string[] = [];
  const story = storySentences(item);
  if (story.length > 0) out.push(story.join(' '), '');
  if (item.goal.trim() !== '') out.push(`**Done when:** ${oneLine(item.goal, 600)}`, '');
  out.push('## Checklist', '');
  for (const s of workSteps(item, c)) out.push(`- [ ] ${s.text}${s.when ? ` (${s.when})` : ''}`);
  if (c.distinct.length > 0) out.push('- [ ] Confirm each signal above is handled, and say how in an operator note on the task.');
  out.push(`- [ ] ${closing}`, '');
  if (c.distinct.length > 0 || c.memory.length > 0) {
    out.push('## Context', '');
    for (const d of c.distinct) out.push(`- ${d.cite} **${oneLine(d.signal.title, 200)}** (${d.signal.kind}, ${groupPriority(d)})${d.signal.detail.trim() ? `: ${oneLine(d.signal.detail, 240)}` : ''}`);
    for (const { m, cite } of memoryFacts(c)) out.push(`- ${cite} **${oneLine(m.title, 200)}**: ${oneLine(m.content, 240)}`);
    out.push('');
  }
  return out;
}

export function composePlan(item: WorkItem, c: Citations, closing: string): string[] {
  const out = ['## Goal', ''];
  const story = storySentences(item);
  if (item.goal.trim() !== '') out.push(oneLine(item.goal, 600));
  else out.push(`No goal is set on the task; this plan works toward its summary${story.length > 0 ? `: ${story[0]}` : '.'}`);
  out.push('');
  if (story.length > 0 && item.goal.trim() !== '') out.push(story.join(' '), '');
  out.push(...directionLines(item));
  out.push('## Steps', '');
  const steps = workSteps(item, c);
  if (steps.length === 0) steps.push({ text: 'Break the task into its first concrete step and note it on the task.', owner: 'Operator', when: null });
  steps.push({ text: `Review the plan against the goal. ${closing}`, owner: 'Reviewer', when: null });
  steps.forEach((s, i) => out.push(`${i + 1}. ${s.text} **Owner:** ${s.owner}.${s.when ? ` **When:** ${s.when}.` : ''}`));
  out.push('', 'Owners are roles: put a person against each before you approve.', '');
  const pressing = c.distinct.filter((d) => priorityRank(groupPriority(d)) >= 2).sort((a, b) => priorityRank(groupPriority(b)) - priorityRank(groupPriority(a)));
  const facts = memoryFacts(c);
  if (pressing.length > 0 || facts.length > 0) {
    out.push('## Risks and what we know', '');
    for (const d of pressing) out.push(`- ${d.cite} ${oneLine(d.signal.title, 200)} (${groupPriority(d)} priority)`);
    for (const { m, cite } of facts) out.push(`- ${cite} ${oneLine(m.title, 200)}: ${oneLine(m.content, 240)}`);
    out.push('');
  }
  return out;
}

export function composeSummary(item: WorkItem, c: Citations, closing: string): string[] {
  const out = ['## In short', ''];
  const story = storySentences(item);
  const repeated = c.cited.length - c.distinct.length;
  const counts = c.cited.length === 0 ? 'No signals are attached.' : `${c.cited.length} signal${c.cited.length === 1 ? '' : 's'}${repeated > 0 ? `, ${c.distinct.length} distinct (${repeated} repeat${repeated === 1 ? 's' : ''} an earlier one)` : ''}.`;
  out.push([...story, counts].join(' '), '');
  if (item.goal.trim() !== '') out.push(`**Goal:** ${oneLine(item.goal, 600)}`, '');
  out.push('## Key points', '');
  // Each thing once: a signal's detail that the summary already says, or a fact a signal states, is left out.
  const said = [...story];
  const fresh = (text: string): boolean => {
    if (text === '' || said.some((t) => sameStatement(t, text))) return false;
    said.push(text);
    return true;
  };
  const before = out.length;
  for (const d of c.distinct) {
    const title = oneLine(d.signal.title, 200);
    const detail = oneLine(d.signal.detail, 240);
    if (!fresh(title)) continue;
    out.push(`- ${asSentence(title)} ${d.cite}${fresh(detail) ? ` ${asSentence(detail)}` : ''}`);
  }
  for (const { m, cite } of memoryFacts(c)) if (fresh(oneLine(m.content, 240))) out.push(`- ${asSentence(oneLine(m.content, 240))} ${cite}`);
  if (out.length === before) out.push('- Nothing beyond the task itself.');
  out.push('');
  const steps = workSteps(item, c).slice(0, 3);
  if (steps.length > 0) {
    out.push('## What needs attention', '');
    steps.forEach((s) => out.push(`- ${s.text}`));
    out.push('');
  }
  out.push(`_${closing}_`, '');
  return out;
}

