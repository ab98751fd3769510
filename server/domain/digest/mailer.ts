import fs from 'node:fs/promises';
import path from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../core/private-data';
import type { DigestDelivery } from './rules';

/**
 * How a digest leaves the desk: through SMTP when DESK_SMTP_URL is set, else as an RFC 822 .eml
 * file (nodemailer's own MIME: multipart/alternative with the text and HTML parts) in
 * `<data dir>/outbox/`, which any mail client opens. Never called inside a transaction.
 */

export interface DigestMail {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
}

export interface MailResult {
  delivery: DigestDelivery;
  /** The .eml file written (outbox), or null. */
  file: string | null;
  /** Why SMTP refused it (delivery failed), or null. */
  error: string | null;
}

export interface MailerConfig {
  smtpUrl?: string;
  dataDir: string;
}

/** SMTP waits at most this long for each step (connect, greeting, a reply), so a dead server cannot hold a job. */
const SMTP_TIMEOUT_MS = 15_000;

/** The From of every digest: the workspace's digest address when set (the desk writes as itself), else a local placeholder. */
export function fromAddress(digestEmail: string | null): string {
  return `Desk digest <${digestEmail ?? 'desk@localhost'}>`;
}

export const outboxDir = (dataDir: string) => path.join(dataDir, 'outbox');

/** A file name that sorts by time and never collides: 20261123T080000Z-<n>.eml. */
function emlName(now: Date, seq: number): string {
  return `${now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}-${String(seq).padStart(4, '0')}.eml`;
}

let outboxSeq = 0;

export async function sendDigestMail(config: MailerConfig, mail: DigestMail, now: Date): Promise<MailResult> {
  // Loaded when the first digest goes out, not at every desk start.
  const { default: nodemailer } = await import('nodemailer');
  const message = { from: mail.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, date: now };
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport({ url: config.smtpUrl, connectionTimeout: SMTP_TIMEOUT_MS, greetingTimeout: SMTP_TIMEOUT_MS, socketTimeout: SMTP_TIMEOUT_MS });
    try {
      await transport.sendMail(message);
      return { delivery: 'smtp', file: null, error: null };
    } catch (err) {
      // The server's own words, without the URL (it may carry a password).
      return { delivery: 'failed', file: null, error: (err instanceof Error ? err.message : String(err)).slice(0, 300) };
    } finally {
      transport.close();
    }
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  const info = await transport.sendMail(message);
  const dir = outboxDir(config.dataDir);
  await fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  outboxSeq = (outboxSeq + 1) % 10_000;
  let file = path.join(dir, emlName(now, outboxSeq));
  for (let n = 1; await exists(file); n++) file = path.join(dir, emlName(now, (outboxSeq + n) % 10_000));
  await fs.writeFile(file, info.message as Buffer, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
  return { delivery: 'outbox', file, error: null };
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}
