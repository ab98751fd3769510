import type { VersionFixture } from './types';
import { fixture as f0001 } from './0001_foundation';
import { fixture as f0002 } from './0002_signals_sources';
import { fixture as f0003 } from './0003_signal_external_id';
import { fixture as f0004 } from './0004_sources_list';
import { fixture as f0005 } from './0005_focus_shifts_index';
import { fixture as f0006 } from './0006_ingest_tokens';
import { fixture as f0007 } from './0007_file_source_path_unique';
import { fixture as f0008 } from './0008_tasks';
import { fixture as f0009 } from './0009_members_templates';
import { fixture as f0010 } from './0010_task_comments';
import { fixture as f0011 } from './0011_loop';
import { fixture as f0012 } from './0012_cost_guard';
import { fixture as f0013 } from './0013_outbound';
import { fixture as f0014 } from './0014_search';
import { fixture as f0015 } from './0015_digest';
import { fixture as f0016 } from './0016_public';
import { fixture as f0017 } from './0017_search_deferred';
import { fixture as f0018 } from './0018_search_queue';
import { fixture as f0019 } from './0019_engine_budget';
import { fixture as f0020 } from './0020_mcp_tokens';
import { fixture as f0021 } from './0021_review_step';

/**
 * The upgrade fixture of every migration, by migration name (the same keys as db/migrations/index.ts).
 * A new migration gets one: add `NNNN_<name>.ts` here beside the others (rows of the tables it creates,
 * values of the columns it adds, `{}` for an index), and register it below; upgrades.test.ts fails,
 * naming the file, until it is.
 */
export const upgradeFixtures: Record<string, VersionFixture> = {
  '0001_foundation': f0001,
  '0002_signals_sources': f0002,
  '0003_signal_external_id': f0003,
  '0004_sources_list': f0004,
  '0005_focus_shifts_index': f0005,
  '0006_ingest_tokens': f0006,
  '0007_file_source_path_unique': f0007,
  '0008_tasks': f0008,
  '0009_members_templates': f0009,
  '0010_task_comments': f0010,
  '0011_loop': f0011,
  '0012_cost_guard': f0012,
  '0013_outbound': f0013,
  '0014_search': f0014,
  '0015_digest': f0015,
  '0016_public': f0016,
  '0017_search_deferred': f0017,
  '0018_search_queue': f0018,
  '0019_engine_budget': f0019,
  '0020_mcp_tokens': f0020,
  '0021_review_step': f0021,
};
