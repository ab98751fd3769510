import { describe, expect, it } from 'vitest';
import type { DigestContent } from './content';
import { digestSubject, renderDigest } from './render';

const content = (over: Partial<DigestContent['approvals']> = {}): DigestContent => ({
  generatedAt: '2026-11-23T13:00:00.000Z',
  since: '2026-11-22T13:00:00.000Z',
  approvals: { waiting: 0, fresh: 0, watch: 0, overdue: 0, oldestWaitHours: null, items: [], ...over },
  loop: { runsCompleted: 2, runsFailed: 0, runsSkipped: 0, signalsReceived: 5, outputsMade: 1, approvalsDecided: 1, tasksCreated: 0, tasksDone: 1 },
  spend: { todayCents: 12, yesterdayCents: 250, baselineCents: 100, capCents: null, capPercent: null, capReached: false },
  spikes: [],
  quietSources: [{ sourceId: 'src_1', label: 'Blog <RSS>', quietForDays: 20.6 }],
});
const NY = 'America/New_York';
const monday = new Date('2026-11-23T13:00:00Z');

describe('the digest email', () => {
  it('says in the subject what waits, on the workspace day', () => {
    expect(digestSubject(content({ waiting: 3 }), monday, NY)).toBe('3 approvals wait · Desk digest for Mon 23 Nov');
    expect(digestSubject(content({ waiting: 1 }), monday, NY)).toBe('1 approval waits · Desk digest for Mon 23 Nov');
    expect(digestSubject(content(), monday, NY)).toBe('Nothing waits for you · Desk digest for Mon 23 Nov');
    // 23:30 Sunday in New York is Monday in UTC: the subject names Sunday.
    expect(digestSubject(content(), new Date('2026-11-23T04:30:00Z'), NY)).toBe('Nothing waits for you · Desk digest for Sun 22 Nov');
  });

  it('escapes every value, keeps only the chosen sections, and has a matching plain-text part', () => {
    const all = renderDigest({ content: content(), at: monday, timezone: NY, recipientName: 'Ada <admin>', sections: ['loop', 'quiet-sources'], deskUrl: '' });
    expect(all.html).toContain('Ada &lt;admin&gt;');
    expect(all.html).toContain('Blog &lt;RSS&gt;');
    expect(all.html).not.toContain('<RSS>');
    expect(all.html).toContain('What the desk did');
    expect(all.html).not.toContain('Waiting for your decision');
    expect(all.html).not.toContain('Spend');
    expect(all.text).toContain('QUIET SOURCES\n- Blog <RSS>: quiet for 20 days');
    expect(all.text).toContain('Since Sun 22 Nov 08:00 (America/New_York)');
    expect(all.text).toContain('Good morning, Ada <admin>.');
    // Without the desk's URL there are no links to a place the reader cannot open.
    expect(all.html).not.toContain('<a ');
  });
});
