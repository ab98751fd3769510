import { describe, expect, it } from 'vitest';
import { summarisePage, type UiLoad } from './ui-verdict';

const loads = (...pairs: [number, number][]): UiLoad[] => pairs.map(([readyMs, longestTaskMs]) => ({ readyMs, longestTaskMs }));

describe('summarisePage (the UI bench verdict)', () => {
  it('takes the p50 of the loads (nearest rank), the slowest load and the longest task of all', () => {
    const s = summarisePage('Signals', loads([120, 60], [100, 0], [400, 90], [110, 70], [130, 55]), loads([80, 90], [60, 100], [70, 95]));
    expect(s).toMatchObject({ name: 'Signals', loads: 5, p50Ms: 120, maxMs: 400, longestTaskMs: 90, longestTaskP50Ms: 60, absoluteOk: true, ok: true });
    expect(s.ratio).toBeCloseTo(120 / 70);
    expect(s.longTaskRatio).toBeCloseTo(0.9);
  });

  it('passes a page past 300 ms when it stays within twice its baseline, and says the absolute target is missed', () => {
    const s = summarisePage('Tasks', loads([700, 150], [650, 150], [720, 150]), loads([400, 120], [380, 120], [420, 120]));
    expect(s).toMatchObject({ p50Ms: 700, absoluteOk: false, ok: true });
    expect(s.ratio).toBeCloseTo(1.75);
  });

  it('fails a page past 300 ms and past twice its baseline', () => {
    const s = summarisePage('Activity', loads([900, 100], [950, 100], [1000, 100]), loads([400, 100], [400, 100], [420, 100]));
    expect(s).toMatchObject({ p50Ms: 950, absoluteOk: false, ok: false });
  });

  it('fails a page with a long task past 200 ms and past twice the baseline\'s longest', () => {
    const s = summarisePage('Outputs', loads([150, 260], [160, 40]), loads([100, 120], [100, 80]));
    expect(s).toMatchObject({ longestTaskMs: 260, absoluteOk: false, ok: false });
    expect(s.longTaskRatio).toBeCloseTo(260 / 120);
  });

  it('judges a long task past 200 ms by the ratio alone when the baseline ran one too, and never divides by a baseline without one', () => {
    expect(summarisePage('Cost', loads([150, 230]), loads([100, 150])).ok).toBe(true);
    const none = summarisePage('Today', loads([150, 0]), loads([100, 0]));
    expect(none.longTaskRatio).toBeNaN();
    expect(none.ok).toBe(true);
    expect(summarisePage('Today', loads([150, 250]), loads([100, 0])).ok).toBe(false);
  });

  it('refuses to sum up nothing', () => {
    expect(() => summarisePage('Search', [], loads([100, 0]))).toThrow(/no loads/);
  });
});
