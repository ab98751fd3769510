import { sql } from 'kysely';
import type { Db } from '../../../db/connection';
import { onTableWrite } from '../../../db/statement-cache';

/**
 * The outbox as a live stream (GET /events/stream): every event the desk writes, in commit order,
 * handed to each listener after its transaction commits. Rows are read by rowid: transactions are
 * serialised (the desk's connection and the cycle worker's both begin IMMEDIATE), so rowids grow
 * in commit order and a reader never skips a row committed after the one it read last, which an
 * id minted before its commit could not promise.
 */

export interface StreamedEvent {
  /** The event's id (the SSE id a client reconnects with). */
  id: string;
  event: string;
  /** The envelope as webhooks get it: `{ id, event, createdAt, data }`, JSON. */
  payload: string;
}

export type EventListener = (events: StreamedEvent[]) => void;

/** At most this many events are replayed to a client that reconnects; further back it resyncs. */
export const MAX_REPLAY = 1000;

interface Row extends StreamedEvent {
  seq: number;
}

async function rowsAfter(db: Db, seq: number, limit: number): Promise<Row[]> {
  const r = await sql<Row>`SELECT rowid AS seq, id, event, payload FROM outbox_events WHERE rowid > ${seq} ORDER BY rowid LIMIT ${limit}`.execute(db);
  return r.rows;
}

async function maxSeq(db: Db): Promise<number> {
  const r = await sql<{ seq: number | null }>`SELECT max(rowid) AS seq FROM outbox_events`.execute(db);
  return Number(r.rows[0]?.seq ?? 0);
}

export class EventStream {
  private readonly listeners = new Set<EventListener>();
  private seq = 0;
  private started = false;
  private reading: Promise<void> = Promise.resolve();
  private again = false;
  private unsubscribe: (() => void) | null = null;
  /** Each open stream's way to end itself: the desk ends them all when it stops. */
  private readonly enders = new Set<() => void>();

  constructor(private readonly db: Db) {}

  /** Starts following committed writes of the outbox (from its end: nothing is replayed to nobody). */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.seq = await maxSeq(this.db);
    this.unsubscribe = onTableWrite(this.db, 'outbox_events', () => this.pull());
  }

  /** Stops following the outbox and ends every open stream (their clients reconnect to the next desk). */
  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.listeners.clear();
    for (const end of [...this.enders]) end();
    this.enders.clear();
    this.started = false;
  }

  /** One pull at a time; a write that lands while one runs makes it read once more. */
  private pull(): void {
    if (this.again) return;
    this.again = true;
    this.reading = this.reading.then(async () => {
      this.again = false;
      try {
        for (;;) {
          let rows = await rowsAfter(this.db, this.seq, 500);
          // The prune emptied the table and rowids started over: follow them from the start.
          if (rows.length === 0 && (await maxSeq(this.db)) < this.seq) {
            this.seq = 0;
            rows = await rowsAfter(this.db, 0, 500);
          }
          if (rows.length === 0) return;
          this.seq = rows[rows.length - 1].seq;
          const events = rows.map(({ id, event, payload }) => ({ id, event, payload }));
          for (const l of this.listeners) l(events);
          if (rows.length < 500) return;
        }
      } catch {
        // A read that fails (the desk is stopping) drops nothing for good: the next write reads from the same place.
      }
    });
  }

  /**
   * Subscribes `listener` to events committed from now on. With `lastEventId` (an SSE reconnect),
   * the events after that one are handed first, or `resync` is answered when it is unknown (pruned,
   * or further back than MAX_REPLAY): the client then reloads what it shows.
   */
  async subscribe(listener: EventListener, lastEventId?: string, onEnd?: () => void): Promise<{ replay: StreamedEvent[]; resync: boolean; unsubscribe: () => void }> {
    // Listening starts first and holds what arrives until the replay is read: no gap between the
    // two, and an event in both is handed once.
    const held: StreamedEvent[] = [];
    let live = false;
    const wrapper: EventListener = (events) => (live ? listener(events) : held.push(...events));
    this.listeners.add(wrapper);
    let replay: StreamedEvent[] = [];
    let resync = false;
    try {
      if (lastEventId !== undefined && lastEventId !== '') {
        const at = await sql<{ seq: number }>`SELECT rowid AS seq FROM outbox_events WHERE id = ${lastEventId}`.execute(this.db);
        const from = at.rows[0]?.seq;
        if (from === undefined) resync = true;
        else {
          const rows = await rowsAfter(this.db, from, MAX_REPLAY + 1);
          if (rows.length > MAX_REPLAY) resync = true;
          else replay = rows.map(({ id, event, payload }) => ({ id, event, payload }));
        }
      }
    } catch (err) {
      this.listeners.delete(wrapper);
      throw err;
    }
    const seen = new Set(replay.map((e) => e.id));
    replay.push(...held.filter((e) => !seen.has(e.id)));
    live = true;
    if (onEnd) this.enders.add(onEnd);
    return {
      replay,
      resync,
      unsubscribe: () => {
        this.listeners.delete(wrapper);
        if (onEnd) this.enders.delete(onEnd);
      },
    };
  }

  get listenerCount(): number {
    return this.listeners.size;
  }
}
