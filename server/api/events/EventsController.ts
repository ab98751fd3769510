import { Controller, Get, Route, Security, Tags } from '@tsoa/runtime';
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
  /**
   * The outbound event vocabulary: every event Desk emits, with a sample payload. Events are
   * written in the same transaction as the change they report and delivered after it commits.
   */
  @Get()
  public async listEvents(): Promise<EventCatalog> {
    return { events: EVENT_NAMES.map((name) => ({ name, description: EVENT_CATALOG[name].description, example: EVENT_CATALOG[name].example })) };
  }
}
