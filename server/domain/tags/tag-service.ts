import { sql } from 'kysely';
import type { Db } from '../../../db/connection';
import { inTransaction } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { newId } from '../../core/ids';
import { pageRequest, toPage } from '../../core/lists';
import { recordActivity } from '../activity/activity';
import { emit } from '../events/outbox';
import { resolveActor } from '../members/resolve-actor';
import { renameArtifactTag } from '../artifacts/artifact-store';
import { renameMemoryTag } from '../memory/memory-store';
import { checkTag } from '../tasks/rules';
import { renameTaskTag } from '../tasks/task-store';
import { insertFocusShift, updateWorkspaceRow } from '../workspace/workspace-store';
import { TAG_SEARCH_LIST, checkRename, renameInList, type TaggedKind } from './tag-rules';

/** One task, output or memory entry carrying a tag. */
export interface TaggedItem {
  kind: TaggedKind;
  id: string;
  title: string;
  /** The task's or output's status; `active` or `archived` for a memory entry. */
  status: string;
  /** @format date-time */
  createdAt: string;
  /** Where it opens in the desk's UI: /tasks/<id>, /outputs/<id> or /memory/<id>. */
  route: string;
}

export interface TagSearchResult {
  tag: string;
  /** How many of each kind carry the tag (all pages). */
  counts: TagCounts;
  /** Newest first (creation time, then kind and id). */
  items: TaggedItem[];
  /** Pass as `cursor` to read the next (older) page; null on the last page. */
  nextCursor: string | null;
}

export interface TagCounts {
  /** @isInt */
  tasks: number;
  /** @isInt */
  artifacts: number;
  /** @isInt */
  memory: number;
}

/** What a rename changed in one kind of row. */
export interface TagRenameCount {
  /**
   * Rows that carried `from` and now carry `to` instead.
   * @isInt
   */
  renamed: number;
  /**
   * Rows that carried both: they keep `to` once and lose `from`.
   * @isInt
   */
  merged: number;
}

export interface TagRenameResult {
  from: string;
  to: string;
  tasks: TagRenameCount;
  artifacts: TagRenameCount;
  memory: TagRenameCount;
  /** Whether the workspace focus tags carried `from` (and now carry `to`). */
  focusTags: boolean;
  /** The focus tags after the rename. */
  focusTagsNow: string[];
  /** False when nothing carried `from`: nothing was written (no activity row, no event). */
  changed: boolean;
}

const ROUTES: Record<TaggedKind, string> = { task: '/tasks/', artifact: '/outputs/', memory: '/memory/' };
/** Each tagged kind's rename, by the store that owns its tag table. */
const TAG_RENAMES = [
  { key: 'tasks', rename: renameTaskTag },
  { key: 'artifacts', rename: renameArtifactTag },
  { key: 'memory', rename: renameMemoryTag },
] as const;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Tags across the workspace: who carries a tag (GET /workspace/tag-search) and the rename or merge. */
export class TagService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Tasks, outputs and memory entries carrying exactly `tag`, newest first, a page at a time (served from the tag indexes). */
  async search(query: { tag?: string; limit?: number; cursor?: string }): Promise<TagSearchResult> {
    const tag = checkTag(query.tag, 'tag');
    const { limit, after } = pageRequest(TAG_SEARCH_LIST, query, ['string', 'string', 'string']);
    const before = after === undefined ? sql`` : sql` WHERE (created_at, kind, id) < (${after[0]}, ${after[1]}, ${after[2]})`;
    const { rows } = await sql<{ kind: TaggedKind; id: string; title: string; status: string; createdAt: string }>`
      SELECT * FROM (
        SELECT 'task' AS kind, x.id, x.title, x.status, x.created_at FROM task_tags g JOIN tasks x ON x.id = g.task_id WHERE g.tag = ${tag}
        UNION ALL
        SELECT 'artifact', x.id, x.title, x.status, x.created_at FROM artifact_tags g JOIN artifacts x ON x.id = g.artifact_id WHERE g.tag = ${tag}
        UNION ALL
        SELECT 'memory', x.id, x.title, CASE WHEN x.archived_at IS NULL THEN 'active' ELSE 'archived' END, x.created_at
        FROM memory_tags g JOIN memory x ON x.id = g.memory_id WHERE g.tag = ${tag}
      )${before}
      ORDER BY created_at DESC, kind DESC, id DESC
      LIMIT ${limit + 1}`.execute(this.db);
    const page = toPage(rows, limit, (r) => [r.createdAt, r.kind, r.id]);
    const counts = await sql<TagCounts>`
      SELECT (SELECT count(*) FROM task_tags WHERE tag = ${tag}) AS tasks,
        (SELECT count(*) FROM artifact_tags WHERE tag = ${tag}) AS artifacts,
        (SELECT count(*) FROM memory_tags WHERE tag = ${tag}) AS memory`.execute(this.db);
    return {
      tag,
      counts: counts.rows[0],
      items: page.rows.map((r) => ({ ...r, route: `${ROUTES[r.kind]}${encodeURIComponent(r.id)}` })),
      nextCursor: page.nextCursor,
    };
  }

  /**
   * Renames `from` to `to` on every task, output and memory entry and in the focus tags, in one
   * transaction; a row that already carries `to` keeps it once (a merge). One activity row and one
   * `tag.renamed` event when anything changed; nothing is written when nothing carried `from`.
   */
  async rename(body: { from?: unknown; to?: unknown }): Promise<TagRenameResult> {
    const { from, to } = checkRename(body.from, body.to);
    const actor = await resolveActor(this.db);
    return inTransaction(this.db, async (trx) => {
      const counts = {} as Record<(typeof TAG_RENAMES)[number]['key'], TagRenameCount>;
      for (const { key, rename } of TAG_RENAMES) counts[key] = await rename(trx, from, to);
      const workspace = await trx.selectFrom('workspace').select(['id', 'focusTags']).executeTakeFirstOrThrow();
      const focusBefore = JSON.parse(workspace.focusTags) as string[];
      const focusNow = renameInList(focusBefore, from, to);
      const focusChanged = focusBefore.includes(from);
      if (focusChanged) {
        const json = JSON.stringify(focusNow);
        await updateWorkspaceRow(trx, { focusTags: json });
        // A different set of focus tags starts a focus shift, as PUT /workspace/focus-tags does.
        await insertFocusShift(trx, { id: newId('fcs', this.clock), tags: json, startedAt: this.clock.now().toISOString() });
      }
      const rows = (k: TagRenameCount) => k.renamed + k.merged;
      const changed = focusChanged || rows(counts.tasks) + rows(counts.artifacts) + rows(counts.memory) > 0;
      const result: TagRenameResult = { from, to, ...counts, focusTags: focusChanged, focusTagsNow: focusNow, changed };
      if (!changed) return result;
      const merged = counts.tasks.merged + counts.artifacts.merged + counts.memory.merged;
      const parts = [
        plural(rows(counts.tasks), 'task', 'tasks'),
        plural(rows(counts.artifacts), 'output', 'outputs'),
        plural(rows(counts.memory), 'memory entry', 'memory entries'),
      ];
      if (focusChanged) parts.push('the focus tags');
      await recordActivity(trx, this.clock, {
        kind: 'tag.renamed',
        detail: `Tag ${from} renamed to ${to}: ${parts.join(', ')}${merged > 0 ? ` (${merged} merged)` : ''}`,
        actor,
      });
      await emit(trx, this.clock, 'tag.renamed', { from, to, tasks: counts.tasks, artifacts: counts.artifacts, memory: counts.memory, focusTags: focusChanged });
      return result;
    });
  }
}
