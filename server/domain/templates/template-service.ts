import type { Db } from '../../../db/connection';
import type { TaskTemplateTable } from '../../../db/schema';
import { inTransaction, type Trx } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { conflict, notFound } from '../../core/errors';
import { newId } from '../../core/ids';
import { recordActivity } from '../activity/activity';
import { emit } from '../events/outbox';
import { resolveActor } from '../members/resolve-actor';
import { checkNewTemplate, checkTemplatePatch, MAX_TASK_TEMPLATES, type TemplateFields, type TemplateInput } from './rules';

/** A task template: a starting point for a new task. */
export interface TaskTemplate extends TemplateFields {
  id: string;
  /** How many times it was used (POST /workspace/task-templates/{id}). @isInt */
  usageCount: number;
  /** @format date-time */
  lastUsedAt: string | null;
  createdByUserId: string;
  /** @format date-time */
  createdAt: string;
  /** @format date-time */
  updatedAt: string;
}

const toView = (r: TaskTemplateTable): TaskTemplate => ({
  id: r.id,
  label: r.label,
  emoji: r.emoji,
  hint: r.hint,
  title: r.title,
  summary: r.summary,
  goal: r.goal,
  kind: r.kind,
  deliverableType: r.deliverableType,
  priority: r.priority,
  tags: JSON.parse(r.tags) as string[],
  usageCount: r.usageCount,
  lastUsedAt: r.lastUsedAt,
  createdByUserId: r.createdByUserId,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

/** Task templates: at most 20 per workspace, label unique (ignoring case). */
export class TemplateService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Every template (at most 20), oldest first. */
  async list(): Promise<TaskTemplate[]> {
    const rows = await this.db.selectFrom('taskTemplates').selectAll().orderBy('createdAt').orderBy('id').limit(MAX_TASK_TEMPLATES).execute();
    return rows.map(toView);
  }

  /** 409 `limit_reached` at 20, `template_label_exists` for a label in use (ignoring case). */
  async create(input: TemplateInput & { asUserId?: string }): Promise<TaskTemplate> {
    const fields = checkNewTemplate(input);
    return inTransaction(this.db, async (trx) => {
      const actor = await resolveActor(trx, input.asUserId);
      const count = await trx.selectFrom('taskTemplates').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      if (Number(count.n) >= MAX_TASK_TEMPLATES) throw conflict('limit_reached', `The workspace already has ${MAX_TASK_TEMPLATES} task templates: delete one first`);
      await this.checkLabelFree(trx, fields.label);
      const now = this.clock.now().toISOString();
      const row: TaskTemplateTable = {
        id: newId('tpl', this.clock),
        ...fields,
        tags: JSON.stringify(fields.tags),
        usageCount: 0,
        lastUsedAt: null,
        createdByUserId: actor.userId,
        createdAt: now,
        updatedAt: now,
      };
      await trx.insertInto('taskTemplates').values(row).execute();
      await recordActivity(trx, this.clock, { kind: 'task_template.created', detail: `Task template created: ${row.label}`, actor, entityType: 'task_template', entityId: row.id });
      await emit(trx, this.clock, 'task_template.created', { templateId: row.id, label: row.label });
      return toView(row);
    });
  }

  /** Changes the fields given (null clears an optional one). A body that changes nothing logs nothing. */
  async update(id: string, input: TemplateInput & { asUserId?: string }): Promise<TaskTemplate> {
    const patch = checkTemplatePatch(input);
    return inTransaction(this.db, async (trx) => {
      const actor = await resolveActor(trx, input.asUserId);
      const before = await this.row(trx, id);
      const current = toView(before);
      const changed = (Object.keys(patch) as (keyof TemplateFields)[]).filter((k) => JSON.stringify(patch[k]) !== JSON.stringify(current[k]));
      if (changed.length === 0) return current;
      if (patch.label !== undefined && patch.label.toLowerCase() !== before.label.toLowerCase()) await this.checkLabelFree(trx, patch.label);
      const set: Partial<TaskTemplateTable> = { ...patch, tags: patch.tags ? JSON.stringify(patch.tags) : undefined, updatedAt: this.clock.now().toISOString() };
      if (set.tags === undefined) delete set.tags;
      await trx.updateTable('taskTemplates').set(set).where('id', '=', id).execute();
      const after = await this.row(trx, id);
      await recordActivity(trx, this.clock, { kind: 'task_template.updated', detail: `Task template edited: ${after.label} (${changed.join(', ')})`, actor, entityType: 'task_template', entityId: id });
      await emit(trx, this.clock, 'task_template.updated', { templateId: id, label: after.label });
      return toView(after);
    });
  }

  async remove(id: string): Promise<TaskTemplate> {
    return inTransaction(this.db, async (trx) => {
      const row = await this.row(trx, id);
      const actor = await resolveActor(trx);
      await trx.deleteFrom('taskTemplates').where('id', '=', id).execute();
      await recordActivity(trx, this.clock, { kind: 'task_template.deleted', detail: `Task template deleted: ${row.label}`, actor, entityType: 'task_template', entityId: id });
      await emit(trx, this.clock, 'task_template.deleted', { templateId: id, label: row.label });
      return toView(row);
    });
  }

  /** Records a use: usageCount + 1, lastUsedAt now. */
  async recordUse(id: string): Promise<TaskTemplate> {
    return inTransaction(this.db, async (trx) => {
      const row = await this.row(trx, id);
      const actor = await resolveActor(trx);
      const now = this.clock.now().toISOString();
      await trx.updateTable('taskTemplates').set((eb) => ({ usageCount: eb('usageCount', '+', 1), lastUsedAt: now })).where('id', '=', id).execute();
      await recordActivity(trx, this.clock, { kind: 'task_template.used', detail: `Task template used: ${row.label}`, actor, entityType: 'task_template', entityId: id });
      return toView({ ...row, usageCount: row.usageCount + 1, lastUsedAt: now });
    });
  }

  private async row(trx: Trx, id: string): Promise<TaskTemplateTable> {
    const row = await trx.selectFrom('taskTemplates').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('task_template', id);
    return row;
  }

  private async checkLabelFree(trx: Trx, label: string): Promise<void> {
    const taken = await trx.selectFrom('taskTemplates').select('id').where((eb) => eb(eb.fn('lower', ['label']), '=', label.toLowerCase())).executeTakeFirst();
    if (taken) throw conflict('template_label_exists', `A task template is already labelled "${label}"`);
  }
}
