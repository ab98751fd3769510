import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeskError } from '../../core/errors';
import { addDays, type Day } from '../../core/workspace-time';
import { createEngine } from '../../engine/index';
import { countTokens } from '../../engine/usage';
import { startChatServer, type ChatServer } from '../../testing/fakes/chat-server';
import { useTestDatabase } from '../../testing/database';
import { insertSignalRow, insertTask } from '../../testing/fixtures/loop';
import { LoopService } from './loop-service';

/**
 * The daily cap as a ceiling, over 60 simulated days of real cycles: the openai engine against a
 * local OpenAI-compatible server, priced like a frontier model ($2.50 / $10 per million tokens),
 * a cycle every two hours (Run now: the cap check and the budget are the same as a scheduled
 * cycle's), normal days with a few signals and spike days with hundreds, and a model that always
 * writes as long as the bound lets it, sometimes past it (cut off). No day may end over its cap,
 * not even by one cycle.
 */

const TZ = 'America/New_York';
const t = useTestDatabase({ workspace: { plan: 'free', timezone: TZ } });
const FIRST: Day = '2026-03-01';
const DAYS = 60;
const CYCLES_PER_DAY = 12;
const CAP_MICRO = 50 * 10_000; // the free plan's seeded cap: 50 cents
const SPIKE_DAYS = new Set([7, 8, 30, 31, 32, 51].map((i) => addDays(FIRST, i)));

let chat: ChatServer;
beforeAll(async () => {
  chat = await startChatServer();
});
afterAll(async () => {
  await chat.close();
});

describe('60 days of priced cycles with spikes and long answers', () => {
  it('ends no day over its cap', { timeout: 300_000 }, async () => {
    const { db, clock } = t;
    await db.updateTable('workspace').set({ engine: 'openai', engineModel: 'frontier-1', engineBaseUrl: chat.baseUrl, engineInputPrice: 2_500_000, engineOutputPrice: 10_000_000, engineStructuredOutput: 'json_schema' }).execute();
    await insertTask({ db, clock }, { title: 'Weekly competitor brief', summary: 'What competitors changed this week.', createdAt: '2026-02-20T00:00:00.000Z' });
    let cycle = 0;
    chat.answer((body) => {
      cycle += 1;
      const messages = body.messages as { content: string }[];
      const ids = [...new Set(messages[1].content.match(/\bsig_[0-9A-Z]{26}\b/g) ?? [])];
      const bound = Number(body.max_tokens);
      // Every third answer wants more than any bound: cut off, then asked again smaller.
      const cutOff = cycle % 3 === 0 && bound > 300;
      return {
        content: cutOff ? '{"newTasks": [' : JSON.stringify({ newTasks: [], taskUpdates: [], artifacts: [], memory: [], workLog: [], triagedSignalIds: ids }),
        finishReason: cutOff ? 'length' : 'stop',
        // The provider counts the prompt as Desk does and bills the full bound, as a model writing to its limit would.
        usage: { prompt_tokens: messages.reduce((n, m) => n + countTokens(m.content) + 4, 3), completion_tokens: bound },
      };
    });
    const loop = new LoopService({ db, clock, engineFor: (s) => createEngine(s, null, { maxRetries: 0, timeoutMs: 60_000 }) });
    let capped = 0;
    for (let i = 0; i < DAYS; i += 1) {
      const day = addDays(FIRST, i);
      for (let k = 0; k < CYCLES_PER_DAY; k += 1) {
        clock.set(DateTime.fromISO(`${day}T00:30`, { zone: TZ }).plus({ hours: 2 * k }).toJSDate());
        const arriving = SPIKE_DAYS.has(day) ? (k < 6 ? 120 : 0) : k % 4 === 0 ? 5 : 0;
        for (let n = 0; n < arriving; n += 1) await insertSignalRow({ db, clock }, { title: `Price change ${i}-${k}-${n}`, detail: 'A competitor changed its list prices for the annual plan. '.repeat(8) });
        try {
          await loop.runNow();
        } catch (err) {
          if (!(err instanceof DeskError && err.code === 'cost_cap_reached')) throw err;
          capped += 1;
        }
      }
    }
    const spend = await db.selectFrom('costDaily').select(['day', 'costMicroUsd']).where('dimension', '=', 'workspace').orderBy('day').execute();
    expect(spend.length).toBeGreaterThanOrEqual(DAYS - 1);
    const worst = Math.max(...spend.map((s) => s.costMicroUsd));
    for (const { day, costMicroUsd } of spend) expect(costMicroUsd, day).toBeLessThanOrEqual(CAP_MICRO);
    // The cap was the limit, not the workload: days ran up close to it.
    expect(worst).toBeGreaterThan(CAP_MICRO * 0.9);
    const runs = await db.selectFrom('runs').select(['status', 'skipReason', 'errorMessage']).execute();
    const by = (status: string, reason?: string) => runs.filter((r) => r.status === status && (reason === undefined || r.skipReason === reason)).length;
    expect(by('completed')).toBeGreaterThan(DAYS);
    expect(by('skipped', 'cost_cap_insufficient') + capped).toBeGreaterThan(0);
    // The loop was never paused for a provider billing past its bound.
    expect((await db.selectFrom('workspace').select('loopPauseReason').executeTakeFirstOrThrow()).loopPauseReason).toBeNull();
    const reasons = new Map<string, number>();
    for (const r of runs) if (r.status === 'failed') reasons.set((r.errorMessage ?? '').replace(/\d+/g, 'N'), (reasons.get((r.errorMessage ?? '').replace(/\d+/g, 'N')) ?? 0) + 1);
    console.log(`60-day simulation: worst day ${(worst / 1e6).toFixed(6)} USD of a ${(CAP_MICRO / 1e6).toFixed(2)} USD cap; ${by('completed')} completed, ${by('failed')} failed, ${by('skipped', 'cost_cap_insufficient')} skipped as not fitting, ${capped} refused at the cap; failures: ${JSON.stringify(Object.fromEntries(reasons))}`);
  });
});
