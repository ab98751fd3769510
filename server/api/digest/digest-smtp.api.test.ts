import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../config';
import { DIGEST_JOB } from '../../jobs/digest-jobs';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { startSmtpReceiver, type SmtpReceiver } from '../../testing/fakes/smtp-receiver';
import { insertArtifactRow } from '../../testing/fixtures/artifacts';
import { addMember } from '../../testing/fixtures/workspace';

/** The digest through a real SMTP server started here on 127.0.0.1 (DESK_SMTP_URL). */

let smtp: SmtpReceiver;
let desk: TestDesk;
let owner: string;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  desk = await startTestDesk({ smtpUrl: smtp.url });
  owner = (await desk.api('GET', '/api/v1/workspace')).body.ownerUserId;
  expect((await desk.api('PATCH', '/api/v1/workspace/digest-email', { digestEmail: 'ops@example.com' })).status).toBe(200);
  await addMember(desk, 'usr_ad', 'Ada Admin', 'admin');
  await desk.services.db.updateTable('users').set({ email: 'ada@example.com' }).where('id', '=', 'usr_ad').execute();
});

afterAll(async () => {
  await desk?.stop();
  await smtp?.close();
});

beforeEach(() => {
  smtp.received.length = 0;
  smtp.refuseWith = null;
});

describe('digest over SMTP', () => {
  it('digest-config says mail leaves through SMTP', async () => {
    expect((await desk.api('GET', '/api/v1/workspace/digest-config')).body.delivery).toBe('smtp');
  });

  it('the SMTP receiver gets the preview with an HTML and a plain-text part', async () => {
    await insertArtifactRow(desk, { title: 'Launch post draft' });
    const res = await desk.api('POST', '/api/v1/workspace/digest-preview', {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ outcome: 'would_send', delivery: 'smtp', error: null, recipient: { userId: owner, address: 'ops@example.com' } });
    expect(smtp.received).toHaveLength(1);
    const { to, from, mail } = smtp.received[0];
    expect(to).toEqual(['ops@example.com']);
    expect(from).toBe('ops@example.com');
    expect(mail.subject).toBe('1 approval waits · Desk digest for Tue 10 Mar');
    expect(mail.headers.get('content-type')).toMatchObject({ value: 'multipart/alternative' });
    expect(mail.html).toContain('Launch post draft');
    expect(mail.html).toContain('<table role="presentation"');
    expect(mail.text).toContain('Launch post draft');
    expect(mail.text).not.toContain('<');
    // With SMTP configured nothing goes to the outbox folder.
    expect(fs.existsSync(path.join(desk.dataDir, 'outbox'))).toBe(false);
  });

  it('a refusing SMTP server is reported and recorded, not thrown', async () => {
    smtp.refuseWith = 'mailbox unavailable';
    const res = await desk.api('POST', '/api/v1/workspace/digest-preview', { userId: 'usr_ad' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ outcome: 'would_send', delivery: 'failed', error: expect.stringContaining('mailbox unavailable') });
    const [entry] = (await desk.api('GET', '/api/v1/workspace/digest-audit?limit=1')).body.entries;
    expect(entry).toMatchObject({ trigger: 'preview', userId: 'usr_ad', delivery: 'failed' });
  });

  it('the scheduled run sends to every owner and admin', async () => {
    await desk.services.scheduler.runNow(DIGEST_JOB);
    expect(smtp.received.map((m) => m.to[0]).sort()).toEqual(['ada@example.com', 'ops@example.com']);
  });
});

describe('DESK_SMTP_URL', () => {
  it('takes smtp:// and smtps:// URLs and refuses anything else naming the variable', () => {
    expect(configFromEnv({ DESK_SMTP_URL: 'smtps://user:pw@smtp.example.com:465' }).smtpUrl).toBe('smtps://user:pw@smtp.example.com:465');
    expect(configFromEnv({}).smtpUrl).toBeUndefined();
    for (const bad of ['http://smtp.example.com', 'smtp.example.com', 'smtp://']) {
      expect(() => configFromEnv({ DESK_SMTP_URL: bad }), bad).toThrow(/DESK_SMTP_URL/);
    }
  });
});
