import { sql, type Kysely } from 'kysely';

/**
 * A daily cap no cycle can break, and real models done right (issue 27).
 *
 * - workspace.engine_input_price / engine_output_price: the price the operator set for a model
 *   the price table does not know (a fine-tune, a local model served for money), integer micro-USD
 *   per million tokens; null means "use the price table, else zero for a server on this machine".
 * - workspace.engine_structured_output: how the configured server takes a structured answer
 *   (`json_schema`, `json_object` or `tools`), found once and remembered; null until found, and
 *   cleared when the model or base URL changes.
 * - workspace.loop_pause_reason: why the desk paused its own loop (a provider billed past the
 *   bound it was given); cleared when the operator sets the loop state.
 * - runs.budget_micro_usd: what was left of the day's cap when the cycle began (null: no cap).
 * - runs.max_output_tokens: the completion bound the cycle's model call was given.
 * - runs.cancelled_at: the operator cancelled the cycle (its status is `failed`: nothing applied).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE workspace ADD COLUMN engine_input_price INTEGER`.execute(db);
  await sql`ALTER TABLE workspace ADD COLUMN engine_output_price INTEGER`.execute(db);
  await sql`ALTER TABLE workspace ADD COLUMN engine_structured_output TEXT`.execute(db);
  await sql`ALTER TABLE workspace ADD COLUMN loop_pause_reason TEXT`.execute(db);
  await sql`ALTER TABLE runs ADD COLUMN budget_micro_usd INTEGER`.execute(db);
  await sql`ALTER TABLE runs ADD COLUMN max_output_tokens INTEGER`.execute(db);
  await sql`ALTER TABLE runs ADD COLUMN cancelled_at TEXT`.execute(db);
}
