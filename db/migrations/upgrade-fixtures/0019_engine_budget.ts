import { IDS } from './ids';
import type { VersionFixture } from './types';

export const fixture: VersionFixture = {
  set: {
    workspace: { [IDS.workspace]: { engine_input_price: 150_000, engine_output_price: 600_000, engine_structured_output: 'json_object', loop_pause_reason: null } },
    runs: { [IDS.run]: { budget_micro_usd: 5_000_000, max_output_tokens: 4096, cancelled_at: null }, [IDS.skippedRun]: { budget_micro_usd: 0, max_output_tokens: null, cancelled_at: null } },
  },
  unset: {
    'workspace.loop_pause_reason': 'set only while the desk has paused its own loop; the fixture keeps the loop on so an upgraded desk runs a cycle',
    'runs.cancelled_at': 'a cancelled cycle is a failed run; the fixture runs are completed and skipped',
  },
};
