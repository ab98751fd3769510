/**
 * The local engine's output: a markdown draft a person would want to read, shaped as its
 * deliverable (deliverables.ts: email, checklist, plan, summary; the outline below for a brief,
 * report, draft, post or other), built only from the task, its signals, the retrieved memory and
 * the operator notes, each cited where it is used. A statement several signals repeat is said once.
 */
import type { ArtifactKind, TaskKind } from '../../core/vocabulary';
import { excerpt } from '../prompt';
import type { EngineMemory, EngineSignal } from '../types';
import { composeChecklist, composeEmail, composePlan, composeSummary, storySentences } from './deliverables';
import { citationsOf, directionLines, formatWhen, groupPriority, headerLines, oneLine, sourcesLines, workSteps, type Citations, type WorkItem } from './draft-parts';
import { priorityRank, subjectOf } from './triage';
import { surfaceForms, words } from './text';

export { MAX_CITED_SIGNALS, type WorkItem } from './draft-parts';

const DEFAULT_KIND: Record<TaskKind, ArtifactKind> = {
  research: 'brief', writing: 'draft', analysis: 'report', outreach: 'email', review: 'summary', planning: 'plan', ops: 'checklist', other: 'summary',
};

export const artifactKind = (item: Pick<WorkItem, 'deliverableType' | 'kind'>): ArtifactKind =>
  item.deliverableType ?? (item.kind ? DEFAULT_KIND[item.kind] : 'brief');

const LABEL: Record<ArtifactKind, string> = {
  brief: 'Brief', report: 'Report', draft: 'Draft', summary: 'Summary', plan: 'Plan', checklist: 'Checklist', email: 'Email draft', post: 'Post draft', other: 'Output',
};

const CLOSING: Record<ArtifactKind, string> = {
  brief: 'Approve this brief to mark the task delivered, or add an operator note saying what it should cover instead.',
  report: 'Check the figures against the cited sources before the report is shared, then approve it.',
  draft: 'Edit the draft to your voice, then approve it; an operator note with changes makes the next cycle redraft it.',
  summary: 'Approve the summary if it is accurate; an operator note with corrections makes the next cycle redraft it.',
  plan: 'Approve the plan, or add an operator note with the constraints it missed.',
  checklist: 'Work through the checklist, then approve it; add an operator note for anything it missed.',
  email: 'Edit the email to your voice, then approve it; an operator note with changes makes the next cycle redraft it.',
  post: 'Edit the post to your voice, then approve it; an operator note with changes makes the next cycle redraft it.',
  other: 'Approve this output, or add an operator note saying what to change.',
};

/** Words that recur across at least two of the distinct statements (the shared story), most frequent first. */
function themes(signals: EngineSignal[]): string[] {
  if (signals.length < 2) return [];
  const count = new Map<string, number>();
  const forms = new Map<string, string>();
  for (const s of signals) {
    surfaceForms(s.title, forms);
    for (const w of words(s.title)) count.set(w, (count.get(w) ?? 0) + 1);
  }
  return [...count.entries()]
    .filter(([, n]) => n >= 2)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 5)
    .map(([w]) => forms.get(w) ?? w);
}

/** A brief, report, draft, post or other output: what happened, what it means, what to do next. */
function composeOutline(item: WorkItem, c: Citations, kind: ArtifactKind, timezone: string): string[] {
  const out = ['## What happened', ''];
  if (c.cited.length === 0) {
    out.push('No signals are attached to this task; this draft works from the task itself and the operator\'s notes.');
  } else {
    if (item.signals.length > c.cited.length) out.push(`The ${c.cited.length} most recent of ${item.signals.length} signals:`, '');
    for (const d of c.distinct) {
      const s = d.signal;
      const fresh = d.group.some((g) => item.freshSignalIds.has(g.id)) && item.latestArtifact ? ' (new since the last version)' : '';
      const link = s.sourceUrl ? ` — [link](${s.sourceUrl})` : '';
      const detail = s.detail.trim() === '' ? '' : `: ${oneLine(s.detail, 280)}`;
      const repeats = d.group.length > 1 ? `; said by ${d.group.length} signals` : '';
      out.push(`- ${d.cite} **${oneLine(s.title, 200)}** (${s.kind}, ${groupPriority(d)}, ${formatWhen(s.createdAt, timezone)}${repeats})${fresh}${detail}${link}`);
    }
  }
  out.push('');

  out.push('## What it means', '');
  if (item.goal.trim() !== '') out.push(`**Goal:** ${oneLine(item.goal, 600)}`, '');
  else out.push('The task has no goal set; this draft works from its summary.', '');
  const story = storySentences(item);
  if (story.length > 0) out.push(story.join(' '), '');
  if (item.context.trim() !== '') out.push(`**Context:** ${oneLine(item.context, 600)}`, '');
  const pressing = c.distinct.filter((d) => priorityRank(groupPriority(d)) >= 2);
  if (pressing.length > 0) {
    out.push(`${pressing.length} of ${c.distinct.length} ${c.distinct.length === 1 ? 'statement' : 'statements'} ${pressing.length === 1 ? 'is' : 'are'} high or urgent priority (${pressing.map((d) => d.cite).join(', ')}): this needs attention before routine work.`, '');
  }
  const common = themes(c.distinct.map((d) => d.signal));
  if (common.length > 0) out.push(`The signals keep coming back to: ${common.join(', ')}.`, '');
  if (item.latestArtifact) {
    const fresh = c.cited.filter((s) => item.freshSignalIds.has(s.id)).length;
    out.push(`Since version ${item.latestArtifact.version} (${item.latestArtifact.status}): ${fresh} new signal${fresh === 1 ? '' : 's'} and ${item.notes.length} operator note${item.notes.length === 1 ? '' : 's'}.`, '');
  }
  if (c.memory.length === 0) {
    out.push('No memory entry matched this task.');
  } else {
    out.push('What Desk already knows:', '');
    c.memory.forEach((m, i) => out.push(`- [M${i + 1}] **${oneLine(m.title, 200)}** (${m.kind}): ${oneLine(m.content, 280)}`));
  }
  out.push('');

  out.push('## What to do next', '', ...directionLines(item));
  const steps = workSteps(item, c).map((s) => `${s.text}${s.when === 'today' ? ' Urgent: today.' : s.when ? ' High priority.' : ''}`);
  if (item.goal.trim() === '') steps.push('Set a goal on the task so the next version can be measured against it.');
  steps.push(CLOSING[kind]);
  steps.forEach((s, i) => out.push(`${i + 1}. ${s}`));
  out.push('');
  return out;
}

export interface Draft {
  kind: ArtifactKind;
  title: string;
  content: string;
  signalIds: string[];
  memoryIds: string[];
  version: number;
}

export function composeDraft(item: WorkItem, memory: EngineMemory[], now: string, timezone: string): Draft {
  const kind = artifactKind(item);
  const version = item.latestArtifact ? item.latestArtifact.version + 1 : 1;
  // "Brief: Competitor launch", not "Brief: Assess: Competitor launch": the label already says what it is.
  const title = excerpt(`${LABEL[kind]}: ${subjectOf(item.title)}`, 200);
  const c = citationsOf(item, memory);
  const body =
    kind === 'email' ? composeEmail(item, c, CLOSING[kind])
    : kind === 'checklist' ? composeChecklist(item, c, CLOSING[kind])
    : kind === 'plan' ? composePlan(item, c, CLOSING[kind])
    : kind === 'summary' ? composeSummary(item, c, CLOSING[kind])
    : composeOutline(item, c, kind, timezone);
  const out = [...headerLines(title, item, version, now, timezone), ...body, ...sourcesLines(c)];
  return { kind, title, content: `${out.join('\n').trimEnd()}\n`, signalIds: c.cited.map((s) => s.id), memoryIds: memory.map((m) => m.id), version };
}
