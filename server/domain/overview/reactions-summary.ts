import { sql } from 'kysely';
import type { Db } from '../../../db/connection';
import { REACTION_EMOJIS, type ReactionEmoji } from '../reactions/reactions';
import { intParam, REACTIONS_TOP_LIMIT } from './rules';

/**
 * GET /workspace/reactions-summary: reactions across the four things that take them (comments,
 * outputs, memory entries, signals), all time. Each reaction table's key starts with the thing's id,
 * so the grouped counts read the keys alone; titles are read for the top few only.
 */

export type ReactedKind = 'comment' | 'artifact' | 'memory' | 'signal';

/** One emoji's total, and how it splits across the four kinds. */
export interface EmojiTotal {
  emoji: ReactionEmoji;
  total: number;
  comments: number;
  artifacts: number;
  memory: number;
  signals: number;
}

export interface EmojiCount {
  emoji: ReactionEmoji;
  count: number;
}

export interface TopReactedEntity {
  kind: ReactedKind;
  id: string;
  /** The thing's title; for a comment, its text (at most 80 characters). */
  title: string;
  /** For a comment: the task it sits on (its page is /tasks/{taskId}); null for other kinds. */
  taskId: string | null;
  total: number;
  /** Emojis with at least one reaction, in the set's order. */
  reactions: EmojiCount[];
}

export interface ReactionsSummary {
  /** Every emoji of the set, in the set's order, zeros included. */
  emojis: EmojiTotal[];
  /** Reactions per kind, and in all. */
  totals: { total: number; comments: number; artifacts: number; memory: number; signals: number };
  /** The most reacted things, most first (ties: the newest reaction first, then kind and id), at most topLimit. */
  top: TopReactedEntity[];
  /** @isInt */
  topLimit: number;
}

const KINDS: { kind: ReactedKind; plural: 'comments' | 'artifacts' | 'memory' | 'signals'; table: string; column: string }[] = [
  { kind: 'comment', plural: 'comments', table: 'comment_reactions', column: 'comment_id' },
  { kind: 'artifact', plural: 'artifacts', table: 'artifact_reactions', column: 'artifact_id' },
  { kind: 'memory', plural: 'memory', table: 'memory_reactions', column: 'memory_id' },
  { kind: 'signal', plural: 'signals', table: 'signal_reactions', column: 'signal_id' },
];

const clip = (text: string, max = 80) => (Array.from(text).length <= max ? text : `${Array.from(text).slice(0, max - 1).join('')}…`);

export async function reactionsSummary(db: Db, query: { topLimit?: number }): Promise<ReactionsSummary> {
  const topLimit = intParam('topLimit', query.topLimit, REACTIONS_TOP_LIMIT);
  const union = (select: (k: (typeof KINDS)[number]) => ReturnType<typeof sql>) => sql.join(KINDS.map(select), sql` UNION ALL `);
  const [perEmoji, top] = await Promise.all([
    sql<{ kind: ReactedKind; emoji: ReactionEmoji; n: number }>`${union(
      (k) => sql`SELECT ${k.kind} AS kind, emoji, count(*) AS n FROM ${sql.table(k.table)} GROUP BY emoji`,
    )}`.execute(db),
    sql<{ kind: ReactedKind; id: string; n: number; last: string }>`
      SELECT kind, id, n, last FROM (${union(
        (k) => sql`SELECT ${k.kind} AS kind, ${sql.ref(k.column)} AS id, count(*) AS n, max(created_at) AS last FROM ${sql.table(k.table)} GROUP BY ${sql.ref(k.column)}`,
      )})
      ORDER BY n DESC, last DESC, kind, id LIMIT ${topLimit}`.execute(db),
  ]);

  const emojis: EmojiTotal[] = REACTION_EMOJIS.map((emoji) => ({ emoji, total: 0, comments: 0, artifacts: 0, memory: 0, signals: 0 }));
  const totals = { total: 0, comments: 0, artifacts: 0, memory: 0, signals: 0 };
  for (const r of perEmoji.rows) {
    const plural = KINDS.find((k) => k.kind === r.kind)!.plural;
    const e = emojis.find((x) => x.emoji === r.emoji);
    if (!e) continue;
    e[plural] += Number(r.n);
    e.total += Number(r.n);
    totals[plural] += Number(r.n);
    totals.total += Number(r.n);
  }

  // Titles and per-emoji counts of the top few, one query per kind present.
  const details = new Map<string, { title: string; taskId: string | null; reactions: EmojiCount[] }>();
  const key = (kind: ReactedKind, id: string) => `${kind}:${id}`;
  await Promise.all(
    KINDS.map(async (k) => {
      const ids = top.rows.filter((r) => r.kind === k.kind).map((r) => r.id);
      if (ids.length === 0) return;
      const [counts, titles] = await Promise.all([
        sql<{ id: string; emoji: ReactionEmoji; n: number }>`SELECT ${sql.ref(k.column)} AS id, emoji, count(*) AS n FROM ${sql.table(k.table)} WHERE ${sql.ref(k.column)} IN (${sql.join(ids)}) GROUP BY ${sql.ref(k.column)}, emoji`.execute(db),
        titlesOf(db, k.kind, ids),
      ]);
      for (const id of ids) {
        const mine = counts.rows.filter((c) => c.id === id);
        const reactions = REACTION_EMOJIS.flatMap((emoji) => {
          const c = mine.find((m) => m.emoji === emoji);
          return c ? [{ emoji, count: Number(c.n) }] : [];
        });
        const t = titles.get(id);
        details.set(key(k.kind, id), { title: t?.title ?? '', taskId: t?.taskId ?? null, reactions });
      }
    }),
  );

  return {
    emojis,
    totals,
    top: top.rows.map((r) => {
      const d = details.get(key(r.kind, r.id));
      return { kind: r.kind, id: r.id, title: d?.title ?? '', taskId: d?.taskId ?? null, total: Number(r.n), reactions: d?.reactions ?? [] };
    }),
    topLimit,
  };
}

async function titlesOf(db: Db, kind: ReactedKind, ids: string[]): Promise<Map<string, { title: string; taskId: string | null }>> {
  const out = new Map<string, { title: string; taskId: string | null }>();
  if (kind === 'comment') {
    for (const r of await db.selectFrom('taskComments').select(['id', 'text', 'taskId']).where('id', 'in', ids).execute()) out.set(r.id, { title: clip(r.text), taskId: r.taskId });
  } else {
    const table = kind === 'artifact' ? 'artifacts' : kind === 'memory' ? 'memory' : 'signals';
    for (const r of await db.selectFrom(table).select(['id', 'title']).where('id', 'in', ids).execute()) out.set(r.id, { title: r.title, taskId: null });
  }
  return out;
}

