import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A received message: the SMTP envelope and the message parsed by mailparser. */
export interface ReceivedMail {
  from: string | null;
  to: string[];
  mail: ParsedMail;
}

export interface SmtpReceiver {
  /** smtp://127.0.0.1:<port>, for DESK_SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** When set, every message is refused with this reply (a failing SMTP server). */
  refuseWith: string | null;
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 (smtp-server, no TLS, no auth) that parses what it receives. */
export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const received: ReceivedMail[] = [];
  const receiver: SmtpReceiver = { url: '', received, refuseWith: null, close: async () => {} };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          if (receiver.refuseWith !== null) return callback(new Error(receiver.refuseWith));
          received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null, to: session.envelope.rcptTo.map((r) => r.address), mail });
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  receiver.url = `smtp://127.0.0.1:${port}`;
  receiver.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return receiver;
}
