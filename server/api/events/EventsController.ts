import type { Request as ExRequest } from 'express';
import { Controller, Get, Header, Produces, Request, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import type { Services } from '../../services';
import { serveEventStream } from './sse';
import { EVENT_CATALOG, EVENT_NAMES, type EventData, type EventName } from '../../domain/catalog/events';

export interface EventCatalogEntry {
  name: EventName;
  description: string;
  /** A sample `data` of this event. */
  example: EventData;
}

export interface EventCatalog {
  /**
   * Every envelope is `{ id, event, createdAt, data }`: `id` is unique per event (receivers dedupe
   * on it), `event` is the name, `data` the payload of that event.
   */
  events: EventCatalogEntry[];
}

@Route('api/v1/events')
@Tags('Events')
@Security('bearer')
export class EventsController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * The outbound event vocabulary: every event Desk emits, with a sample payload. Events are
   * written in the same transaction as the change they report and delivered after it commits.
   */
  @Get()
  public async listEvents(): Promise<EventCatalog> {
    return { events: EVENT_NAMES.map((name) => ({ name, description: EVENT_CATALOG[name].description, example: EVENT_CATALOG[name].example })) };
  }

  /**
   * The desk's events as they happen, as server-sent events (`text/event-stream`), authenticated
   * with the bearer token like every call (a client sets the Authorization header; the
   * `eventsource` package and fetch can). Each event is one message: its `id` is the event's id
   * and its `data` the envelope `{ id, event, createdAt, data }` webhooks get, in commit order, the
   * moment its change commits. Nothing is sent for the past on a first connection. A client that
   * reconnects with `Last-Event-ID` (browsers and `eventsource` do) first gets every event after
   * that one (up to 1000); when they can no longer be replayed (the id is unknown, pruned, or further
   * back) it gets `{"event":"stream.resync"}` and should reload what it shows. A comment line every
   * 15 s keeps an idle stream open; `retry` asks for a reconnect after 2 s. The stream ends when the
   * desk stops. Not in the spec.
   * @param lastEventId the id of the last event the client got (sent by EventSource on reconnect)
   */
  @Get('stream')
  @Produces('text/event-stream')
  @SuccessResponse('200', 'The event stream: `text/event-stream`, open until the client or the desk ends it')
  public async streamEvents(@Request() req: ExRequest, @Header('Last-Event-ID') lastEventId?: string): Promise<string> {
    await serveEventStream(this.s.eventStream, req, lastEventId, this.s.config.eventStreamHeartbeatMs);
    // The stream was written and ended above: tsoa sends nothing once headers are sent.
    return '';
  }
}
