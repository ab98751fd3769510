import { describe, expect, it } from 'vitest';
import { useTestDesk } from '../../testing/use-test-desk';

// A rescue-mode desk's answers are tested in server/rescue-desk.test.ts; here, a healthy desk's.
describe('the rescue endpoints on a desk whose database is fine', () => {
  const shared = useTestDesk();
  const desk = () => shared.desk;

  it('answer 409 not_in_rescue_mode and restore nothing', async () => {
    const state = await desk().api('GET', '/api/v1/rescue');
    expect(state.status).toBe(409);
    expect(state.body).toMatchObject({ error: 'not_in_rescue_mode', message: expect.stringContaining('nothing to rescue') });
    const restore = await desk().api('POST', '/api/v1/rescue/restore', {});
    expect(restore.status).toBe(409);
    expect(restore.body).toMatchObject({ error: 'not_in_rescue_mode' });
    expect((await desk().api('GET', '/api/v1/workspace')).status).toBe(200);
  });

  it('are behind the bearer token like every endpoint', async () => {
    const res = await fetch(`${desk().url}/api/v1/rescue`);
    expect(res.status).toBe(401);
  });
});
