import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { operations, pathKind, reads, SEED, SEQUENCES, useFuzzDesk } from '../../testing/fuzz-desk';

/**
 * The fuzz's other half (fuzz-operations-*.api.test.ts fuzz one operation at a time): sequences of
 * valid writes across every area, with time passing and the jobs running between them, over a
 * desk that holds the whole product; and the fuzz's own preconditions.
 */
describe('fuzz: sequences of writes and passing time, over the whole product', () => {
  const fuzz = useFuzzDesk();

  it('knows the kind of real id every path parameter takes, and the desk holds ids of every kind', () => {
    const unknown = operations.flatMap(({ method, path, op }) =>
      (op.parameters ?? []).filter((p) => p.in === 'path' && !(fuzz.pools()[pathKind(path, p.name) ?? '']?.length > 0)).map((p) => `${method} ${path} {${p.name}}`),
    );
    expect(unknown).toEqual([]);
    expect(Object.entries(fuzz.full.ids).filter(([, ids]) => ids.length === 0)).toEqual([]);
    expect(fuzz.full.artifacts.ready.length * fuzz.full.artifacts.approved.length * fuzz.full.artifacts.archived.length).toBeGreaterThan(0);
  });

  it('sequences of valid writes and passing time never leave a row that a read or a job cannot handle', async () => {
    // Deleting a source its signals name, removing a member who is an assignee, author and reviewer,
    // a blocker deleted under its task, then a day passing over it (sweeps, detectors, digest,
    // deliveries, backups): combinations that one operation at a time never meets.
    const { desk } = fuzz;
    const writes = operations.filter((o) => o.method !== 'GET');
    const jobsRan = new Set<string>();
    const step = fc.oneof(
      { arbitrary: fc.oneof(...writes.map((o) => fuzz.requestArb(o, true))), weight: 9 },
      { arbitrary: fc.integer({ min: 1, max: 72 }).map((hours) => ({ hours })), weight: 1 },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 8, maxLength: 25 }), async (steps) => {
        try {
          const log: string[] = [];
          for (const s of steps) {
            if ('hours' in s) {
              desk.clock.advance(s.hours * 3_600_000);
              const ran = await desk.services.scheduler.tick();
              log.push(`+${s.hours} h: ${ran.join(', ')}`);
              for (const name of ran) jobsRan.add(name);
              const failedJobs = await desk.services.db.selectFrom('schedulerJobs').select(['name', 'lastError']).where('lastError', 'is not', null).execute();
              expect(failedJobs, log.join('\n')).toEqual([]);
              continue;
            }
            const res = await fuzz.send(s);
            log.push(`${s.method} ${s.url.slice(0, 200)} ${s.body?.slice(0, 200)} -> ${res.status} ${res.text.slice(0, 200)}`);
            expect(res.status, log.join('\n')).toBeLessThan(500);
          }
          expect(await fuzz.failingReads(), `reads after:\n${log.join('\n')}`).toEqual([]);
        } finally {
          await desk.services.outbound.worker.settle();
          await fuzz.backToFullDesk();
        }
      }),
      { seed: SEED, numRuns: SEQUENCES, endOnFailure: true },
    );
    expect([...jobsRan]).toEqual(expect.arrayContaining(['loop.cycle', 'tasks.stale-sweep', 'memory.stale-sweep', 'cost-guard.detect', 'outbound.deliver', 'digest.daily', 'sources.feed-poll']));
  }, 600_000);

  it('refuses bodies nested thousands deep on union-typed fields with a 4xx, not a stack overflow', async () => {
    // Written as text: JSON.stringify itself recurses once per level.
    const deep = `${'['.repeat(5000)}1${']'.repeat(5000)}`;
    for (const [path, body] of [
      ['/api/v1/workspace/loop', `{"loopState":${deep}}`],
      ['/api/v1/workspace/cost-cap', `{"dailyCostCapUsdCents":${deep}}`],
    ] as const) {
      const res = await fetch(fuzz.desk.url + path, { method: 'PATCH', headers: { authorization: `Bearer ${fuzz.desk.token}`, 'content-type': 'application/json' }, body });
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
    }
  });

  it('still serves every read after the sequences, and the whole desk is there', async () => {
    expect(reads.length).toBeGreaterThan(80);
    expect(await fuzz.failingReads()).toEqual([]);
    for (const path of fuzz.detailReads()) expect((await fuzz.desk.api('GET', path)).status, path).toBe(200);
  });
});
