import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_NAMES } from '../../domain/catalog/events';
import { startTestDesk, type TestDesk } from '../../testing/desk';

let desk: TestDesk;
beforeAll(async () => {
  desk = await startTestDesk();
});
afterAll(async () => {
  await desk.stop();
});

describe('GET /events', () => {
  it('lists every event of the catalog with a description and a sample payload', async () => {
    const res = await desk.api('GET', '/api/v1/events');
    expect(res.status).toBe(200);
    expect(res.body.events.map((e: { name: string }) => e.name)).toEqual(EVENT_NAMES);
    const acked = res.body.events.find((e: { name: string }) => e.name === 'source.quietness_acked');
    expect(acked.description).toMatch(/once per acked source/);
    expect(Object.keys(acked.example).sort()).toEqual(['expiresAt', 'label', 'quietnessAckedAt', 'sourceId']);
  });

  it('documents the names as an enum in the OpenAPI document', async () => {
    const doc = (await desk.api('GET', '/api/v1/openapi.json', undefined, null)).body;
    expect(doc.components.schemas.EventName.enum).toEqual(EVENT_NAMES);
  });
});
