import type { Migration } from 'kysely';
import * as m0001 from './0001_foundation';
import * as m0002 from './0002_signals_sources';
import * as m0003SignalExternalId from './0003_signal_external_id';
import * as m0004SourcesList from './0004_sources_list';
import * as m0005FocusShiftsIndex from './0005_focus_shifts_index';
import * as m0006IngestTokens from './0006_ingest_tokens';
import * as m0007FileSourcePathUnique from './0007_file_source_path_unique';
import * as m0008Tasks from './0008_tasks';
import * as m0009MembersTemplates from './0009_members_templates';
import * as m0010TaskComments from './0010_task_comments';
import * as m0011Loop from './0011_loop';
import * as m0012CostGuard from './0012_cost_guard';
import * as m0013Outbound from './0013_outbound';
import * as m0014Search from './0014_search';
import * as m0015Digest from './0015_digest';
import * as m0016Public from './0016_public';
import * as m0017SearchDeferred from './0017_search_deferred';
import * as m0018SearchQueue from './0018_search_queue';
import * as m0019EngineBudget from './0019_engine_budget';
import * as m0020McpTokens from './0020_mcp_tokens';
import * as m0021ReviewStep from './0021_review_step';

/**
 * Every migration, statically imported so the list survives bundling
 * (Kysely's FileMigrationProvider reads a folder at run time and breaks once bundled).
 * Append new ones; never edit or reorder a shipped one.
 */
export const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_signals_sources': m0002,
  '0003_signal_external_id': m0003SignalExternalId,
  '0004_sources_list': m0004SourcesList,
  '0005_focus_shifts_index': m0005FocusShiftsIndex,
  '0006_ingest_tokens': m0006IngestTokens,
  '0007_file_source_path_unique': m0007FileSourcePathUnique,
  '0008_tasks': m0008Tasks,
  '0009_members_templates': m0009MembersTemplates,
  '0010_task_comments': m0010TaskComments,
  '0011_loop': m0011Loop,
  '0012_cost_guard': m0012CostGuard,
  '0013_outbound': m0013Outbound,
  '0014_search': m0014Search,
  '0015_digest': m0015Digest,
  '0016_public': m0016Public,
  '0017_search_deferred': m0017SearchDeferred,
  '0018_search_queue': m0018SearchQueue,
  '0019_engine_budget': m0019EngineBudget,
  '0020_mcp_tokens': m0020McpTokens,
  '0021_review_step': m0021ReviewStep,
};
