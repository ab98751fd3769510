import { fid } from './types';

/** The ids the fixtures of several versions share (a later version's rows name an earlier one's). */
export const IDS = {
  workspace: fid('wsp', 1),
  owner: fid('usr', 1),
  admin: fid('usr', 2),
  editor: fid('usr', 3),
  feedSource: fid('src', 1),
  manualSource: fid('src', 2),
  fileSource: fid('src', 3),
  signal: fid('sig', 1),
  webhookSignal: fid('sig', 2),
  fileSignal: fid('sig', 3),
  task: fid('tsk', 1),
  blockerTask: fid('tsk', 2),
  archivedTask: fid('tsk', 3),
  comment: fid('cmt', 1),
  reply: fid('cmt', 2),
  memory: fid('mem', 1),
  archivedMemory: fid('mem', 2),
  run: fid('run', 1),
  skippedRun: fid('run', 2),
  failedRun: fid('run', 3),
  artifact: fid('art', 1),
  artifactV2: fid('art', 2),
  subscription: fid('whk', 1),
  delivery: fid('dlv', 1),
  pendingDelivery: fid('dlv', 2),
} as const;

/** The workspace's bearer token in every fixture: the test calls the API with it. */
export const FIXTURE_TOKEN = 'desk_fixture_token_0123456789abcdef0123456789abcdef0123456789ab';
