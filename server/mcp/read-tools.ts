import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SEARCH_KINDS } from '../domain/search/rules';
import { defineTool, type ToolContext } from './define-tool';
import { cents, lines, usd } from './results';
import { readOutputInput, reviewQueueInput, searchInput, spendInput } from './schemas';

const hours = (h: number | null) => (h === null ? '' : `${Math.round(h)} h`);

/** The tools that change nothing but their call's activity row: what waits, an output, search, spend, the loop. */
export function registerReadTools(server: McpServer, ctx: ToolContext): void {
  const s = ctx.services;

  defineTool(server, ctx, {
    name: 'review_queue',
    title: 'What waits for me',
    description:
      'The review queue: outputs the loop produced that wait for the operator\'s decision, pinned first, then oldest first, each with its attention label (fresh, watch, overdue), its wait and its review owner; plus counts by attention and by owner over the whole queue. Changes nothing.',
    input: reviewQueueInput,
    effect: 'read',
    run: async ({ attention, limit, cursor }) => {
      const page = await s.artifacts.list({ status: 'ready', attention, limit, cursor });
      const outputs = page.rows.map((r) => ({
        id: r.id,
        title: r.title,
        kind: r.kind,
        taskId: r.taskId,
        taskTitle: r.taskTitle,
        version: r.version,
        pinned: r.pinned,
        tags: r.tags,
        readyAt: r.readyAt,
        approvalAgeHours: r.approvalAgeHours,
        approvalAttention: r.approvalAttention,
        reviewOwner: r.reviewOwner,
      }));
      return { outputs, nextCursor: page.nextCursor, approvalAging: page.approvalAging, approvalOwnership: page.approvalOwnership, approvalPolicy: page.approvalPolicy };
    },
    text: (r) => {
      const a = r.approvalAging;
      const head = `${a.waiting} output(s) wait for a decision: ${a.fresh} fresh, ${a.pastWatch} past watch, ${a.pastOverdue} overdue; ${r.approvalOwnership.unassigned} without a review owner.`;
      const rows = lines(
        r.outputs.map((o) => `[${o.approvalAttention ?? 'ready'}${o.approvalAgeHours === null ? '' : `, ${hours(o.approvalAgeHours)}`}] ${o.title} (${o.id})${o.reviewOwner ? `, owner ${o.reviewOwner.name}` : ''}`),
        'Nothing waits.',
      );
      return `${head}\n${rows}${r.nextCursor ? `\nMore: call again with cursor ${r.nextCursor}` : ''}`;
    },
    note: (r) => ({ detail: `Read the review queue (${r.outputs.length} of ${r.approvalAging.waiting} waiting)` }),
  });

  defineTool(server, ctx, {
    name: 'read_output',
    title: 'Read an output',
    description: 'One output with its full markdown content, its task, status, version and how long it has waited. Changes nothing.',
    input: readOutputInput,
    effect: 'read',
    run: ({ id }) => s.artifacts.get(id),
    text: (a) => `# ${a.title}\n${a.id} · ${a.kind} · ${a.status}${a.approvalAttention ? ` (${a.approvalAttention}, waiting ${hours(a.approvalAgeHours)})` : ''}${a.taskTitle ? ` · task: ${a.taskTitle}` : ''}\n\n${a.content}`,
    note: (a) => ({ detail: `Read output ${a.title}`, entityType: 'artifact', entityId: a.id }),
  });

  defineTool(server, ctx, {
    name: 'search',
    title: 'Search the desk',
    description: `Keyword search over signals, tasks, outputs, memory, comments, activity and sources (kinds: ${SEARCH_KINDS.join(', ')}), best match first. Changes nothing.`,
    input: searchInput,
    effect: 'read',
    run: ({ q, limit, kinds }) => s.search.search({ q, limit, kind: kinds?.join(',') }),
    text: (r) => lines(r.hits.map((h) => `${h.kind} ${h.id}: ${h.title}${h.snippet ? ` · ${h.snippet}` : ''}`), `No match for "${r.query}".`),
    note: (r) => ({ detail: `Searched for "${r.query}" (${r.hits.length} hits)` }),
  });

  defineTool(server, ctx, {
    name: 'spend_today',
    title: "Today's spend",
    description: "Today's AI spend against the daily cost cap (whether it is reached: the loop then stops), yesterday and the 7-day baseline, and what drives it: spend by assignee today, the costliest open tasks and sources. Changes nothing.",
    input: spendInput,
    effect: 'read',
    run: async ({ limit }) => {
      const [today, topTasks, bySource] = await Promise.all([s.cost.today(), s.tasks.topByCost({ limit }), s.cost.bySource({ limit })]);
      return {
        today,
        costliestTasks: topTasks.tasks.map((t) => ({ id: t.id, title: t.title, status: t.status, estimatedCostUsd: t.cost.estimatedCostUsd })),
        bySource: bySource.sources.map((x) => ({ sourceId: x.sourceId, label: x.label, taskCount: x.taskCount, estimatedCostUsd: x.estimatedCostUsd })),
      };
    },
    text: (r) => {
      const t = r.today;
      const cap = t.dailyCostCap === null ? 'no daily cap' : `cap ${cents(t.dailyCostCap)} (${t.capPercent ?? 0}%${t.capReached ? ', reached: the loop is stopped for today' : ''})`;
      return [
        `Today (${t.date}, ${t.timezone}): ${cents(t.todayCents)}, ${cap}. Yesterday ${cents(t.yesterdayCents)}, 7-day baseline ${cents(t.baselineCents)}.`,
        `By assignee today: ${t.byAssignee.map((a) => `${a.displayName} ${cents(a.todayCents)}`).join(', ') || 'nothing spent'}.`,
        `Costliest open tasks:\n${lines(r.costliestTasks.map((x) => `${x.title} (${x.id}) ${usd(x.estimatedCostUsd)}`), 'none')}`,
        `By source:\n${lines(r.bySource.map((x) => `${x.label} ${usd(x.estimatedCostUsd)} over ${x.taskCount} task(s)`), 'none')}`,
      ].join('\n');
    },
    note: (r) => ({ detail: `Read today's spend (${cents(r.today.todayCents)})` }),
  });

  defineTool(server, ctx, {
    name: 'loop_status',
    title: "The loop's state",
    description: 'The AI loop: its state (on, paused, off) and scheduled resume, its interval, what it is doing now, when the next cycle is due, whether the cost cap stopped it, and the last cycles. Changes nothing.',
    input: {},
    effect: 'read',
    run: async () => {
      const [profile, runtime, runs] = await Promise.all([s.workspace.profile(), s.loop.runtime(), s.loop.list({ limit: 5 })]);
      return {
        loopState: profile.loopState,
        pauseUntilAt: profile.pauseUntilAt,
        loopIntervalMinutes: profile.effectiveLoopIntervalMinutes,
        runtime,
        lastRuns: runs.runs.map((r) => ({ id: r.id, trigger: r.trigger, status: r.status, startedAt: r.startedAt, estimatedCostUsd: r.estimatedCostUsd, produced: r.produced, errorMessage: r.errorMessage, skipReason: r.skipReason })),
      };
    },
    text: (r) =>
      [
        `Loop ${r.loopState}${r.pauseUntilAt ? ` until ${r.pauseUntilAt}` : ''}, every ${r.loopIntervalMinutes} min; now ${r.runtime.phase}${r.runtime.nextCycleAt ? `, next cycle ${r.runtime.nextCycleAt}` : ''}${r.runtime.capped ? '; the daily cost cap is reached' : ''}.`,
        `Last cycles:\n${lines(r.lastRuns.map((x) => `${x.id} ${x.trigger} ${x.status} at ${x.startedAt}, ${usd(x.estimatedCostUsd)}, ${x.produced.artifactIds.length} output(s)${x.errorMessage ? `: ${x.errorMessage}` : ''}`), 'none yet')}`,
      ].join('\n'),
    note: (r) => ({ detail: `Read the loop's state (${r.loopState}, ${r.runtime.phase})` }),
  });
}
