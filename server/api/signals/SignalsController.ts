import { Body, Controller, Get, Path, Post, Query, Response, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import type { ReactionEmoji } from '../../domain/reactions/reactions';
import type {
  Signal,
  SignalBulkAction,
  SignalBulkResult,
  SignalKind,
  SignalPriority,
  SignalReactionResult,
} from '../../domain/signals/signal-service';
import type { Services } from '../../services';

export interface SignalList {
  signals: Signal[];
  /** Pass as `cursor` to read the next (older) page; null on the last page. */
  nextCursor: string | null;
}

export interface NewSignalBody {
  kind: SignalKind;
  priority: SignalPriority;
  /**
   * 1-200 characters (trimmed).
   */
  title: string;
  /**
   * At most 5000 characters; may be empty.
   */
  detail: string;
  /**
   * An http(s) URL, at most 2000 characters.
   * @pattern ^https?://
   */
  sourceUrl?: string | null;
}

export interface SignalBulkBody {
  action: SignalBulkAction;
  /**
   * 1-50 signal ids; duplicates count once.
   */
  signalIds: string[];
  /** For `pin`: true pins (default), false unpins. Ignored by `delete`. */
  pinned?: boolean;
}

export interface SignalReactionBody {
  emoji: ReactionEmoji;
  /** The member reacting; defaults to the workspace owner. */
  asUserId?: string;
}

/**
 * Signals: what the desk has collected from sources, pushed in through the inbound webhook, or
 * was given by hand. Kinds: news, mention, review, message, alert, metric, note, other.
 * Priorities, lowest first: low, normal, high, urgent.
 */
@Route('api/v1/signals')
@Tags('Signals')
@Security('bearer')
export class SignalsController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * Recent signals, newest first (pinned ones are flagged, not floated). Every signal is
   * reachable: follow `nextCursor` until it is null. A cursor belongs to the filters it was
   * served with; pass them again with it.
   * @param limit signals per page, 1-200 (default 50)
   * @isInt limit must be an integer
   * @param cursor `nextCursor` of the previous page, as it was served (anything else is a 422 naming `cursor`)
   * @param since ISO time; only signals created at or after it (a date alone is the start of that workspace-timezone day)
   * @param sourceId only signals of this source (an unknown id gives an empty list)
   * @param asUserId the member whose `reacted` flags are shown; defaults to the owner
   */
  @Get()
  @Response<ErrorBody>('422', 'limit, cursor, since or asUserId is invalid')
  public async listSignals(
    // the documented default; bounds.test.ts ties it to the list's defineList
    @Query() limit = 50,
    @Query() cursor?: string,
    @Query() since?: string,
    @Query() sourceId?: string,
    @Query() asUserId?: string,
  ): Promise<SignalList> {
    const page = await this.s.signals.list({ limit, cursor, since, sourceId, asUserId });
    return { signals: page.rows, nextCursor: page.nextCursor };
  }

  /**
   * One signal, in the list's shape (what a search hit for a signal opens). Not in the spec's
   * table; added so a signal deep in the list has an address.
   * @param asUserId the member whose `reacted` flags are shown; defaults to the owner
   */
  @Get('{id}')
  @Response<ErrorBody>('404', 'No such signal (`error: signal_not_found`)')
  @Response<ErrorBody>('422', 'asUserId is not a member')
  public async getSignal(@Path() id: string, @Query() asUserId?: string): Promise<Signal> {
    return this.s.signals.get(id, asUserId);
  }

  /**
   * Creates a signal by hand; written to the activity log as `signal.created`, and emits the
   * `signal.created` event (origin `manual`) in the same transaction.
   */
  @Post()
  @SuccessResponse('201', 'Created')
  @Response<ErrorBody>('422', 'A field is invalid; nothing was created')
  public async createSignal(@Body() body: NewSignalBody): Promise<Signal> {
    const signal = await this.s.signals.create(body);
    this.setStatus(201);
    return signal;
  }

  /**
   * Deletes, pins or unpins 1-50 signals at once (duplicates count once). Follows the bulk policy
   * every `.../bulk` call shares: ids that match no signal are listed in `notFound` and the action
   * is applied to the others; when none match the answer is still 200, with `affected: 0` (more
   * than 50 ids, or none, is a 422 and changes nothing). One activity row names the count
   * (`signal.bulk_deleted`, `signal.bulk_pinned`, `signal.bulk_unpinned`; none when nothing matched).
   */
  @Post('bulk')
  @Response<ErrorBody>('422', 'action or signalIds is invalid (e.g. more than 50 ids); nothing changed')
  public async bulkSignals(@Body() body: SignalBulkBody): Promise<SignalBulkResult> {
    return this.s.signals.bulk(body.action, body.signalIds, body.pinned ?? true);
  }

  /**
   * Toggles a reaction (👍 👀 🎯 ❤️ 🚀): the first call adds it, the same call again removes it.
   * Logged as `signal.reaction_added` / `signal.reaction_removed` by the member.
   */
  @Post('{id}/reaction')
  @Response<ErrorBody>('404', 'No such signal')
  @Response<ErrorBody>('422', 'emoji is not one of the set, or asUserId is not a member')
  public async reactToSignal(@Path() id: string, @Body() body: SignalReactionBody): Promise<SignalReactionResult> {
    return this.s.signals.toggleReaction(id, body.emoji, body.asUserId);
  }
}
