import type { FetchFeedOptions } from '../../integrations/feeds/fetch-feed';
import type { BulkAction, BulkRenameInput } from './source-bulk';
import { SourceBulk } from './source-bulk';
import { SourceCadence } from './source-cadence';
import type { SourceDeps } from './source-context';
import { SourceCrud, type CreateSourceInput, type SourcePatch } from './source-crud';
import { SourcePauses } from './source-pauses';
import { SourceQuietness } from './source-quietness';
import type { SourceSync } from './source-sync';

/**
 * The sources area as one object for controllers and jobs. Each method belongs to one focused
 * module (crud, bulk, cadence, quietness, pauses), which holds the rules and result types; this
 * class only builds them and names the area's operations in one place.
 */
export class SourceService {
  readonly crud: SourceCrud;
  readonly bulkOps: SourceBulk;
  readonly cadence: SourceCadence;
  readonly quiet: SourceQuietness;
  readonly pauses: SourcePauses;

  constructor(
    deps: SourceDeps,
    sync: SourceSync,
    options: {
      /** Called once a feed source is added (after commit): start.ts nudges the feed poller. */
      onFeedAdded?: (sourceId: string) => void;
      fetchOptions?: Pick<FetchFeedOptions, 'timeoutMs' | 'maxBytes'>;
    } = {},
  ) {
    this.crud = new SourceCrud(deps, sync, options.onFeedAdded, options.fetchOptions);
    this.bulkOps = new SourceBulk(deps);
    this.cadence = new SourceCadence(deps);
    this.quiet = new SourceQuietness(deps);
    this.pauses = new SourcePauses(deps);
  }

  // one source at a time (source-crud.ts)
  list = (query?: { limit?: number; cursor?: string }) => this.crud.list(query);
  get = (id: string) => this.crud.get(id);
  create = (input: CreateSourceInput) => this.crud.create(input);
  update = (id: string, patch: SourcePatch) => this.crud.update(id, patch);
  setKeywords = (id: string, include: string[], exclude: string[]) => this.crud.setKeywords(id, include, exclude);
  preview = (url: string, type?: string) => this.crud.preview(url, type);
  pollNow = (id: string) => this.crud.pollNow(id);
  importFile = (id: string) => this.crud.importFile(id);
  // many sources (source-bulk.ts)
  bulk = (action: BulkAction, ids: string[]) => this.bulkOps.bulk(action, ids);
  bulkCadence = (minutes: number | null, ids?: string[]) => this.bulkOps.bulkCadence(minutes, ids);
  bulkRename = (input: BulkRenameInput) => this.bulkOps.bulkRename(input);
  // cadence (source-cadence.ts)
  cadenceOverview = () => this.cadence.cadenceOverview();
  // quietness (source-quietness.ts)
  quietness = () => this.quiet.quietness();
  ackQuietness = (ids: string[]) => this.quiet.ackQuietness(ids);
  unackQuietness = (ids: string[]) => this.quiet.unackQuietness(ids);
  ackQuietnessOne = (id: string) => this.quiet.ackOne(id);
  unackQuietnessOne = (id: string) => this.quiet.unackOne(id);
  warnQuietSources = () => this.quiet.warnQuietSources();
  // scheduled pauses (source-pauses.ts)
  setPauseUntil = (id: string, until: string | null) => this.pauses.setPauseUntil(id, until);
  scheduledPaused = () => this.pauses.scheduledPaused();
  resumeExpiredPauses = () => this.pauses.resumeExpiredPauses();
}
