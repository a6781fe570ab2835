// A real SMTP server for the e-mail tests and bench, on 127.0.0.1 and a free port (smtp-server): it
// asks for a login (any user and password, over plain SMTP, as a test may), keeps every message it
// accepts parsed by mailparser (parts, headers, links as a mail client reads them), and answers the
// recipients the test says with an SMTP reply code: a 4xx (try later) or a 5xx (no such user).
// STARTTLS is not offered (its certificate would be self-signed). Stopped by the test that started it.
import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

export type Arrived = { from: string; to: string[]; mail: ParsedMail };

export type SmtpReceiver = {
  /** SMTP_URL for it: smtp://user:pass@127.0.0.1:port */
  url: string;
  arrived: Arrived[];
  /** Only counts what arrives (no parsing): for the bench. */
  countOnly(on: boolean): void;
  count(): number;
  /** The next `RCPT TO` of `address` is answered `code` (4xx or 5xx), `times` times (default once). */
  refuse(address: string, code: number, times?: number): void;
  /** Resolves when `n` messages have arrived (or rejects after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<Arrived[]>;
  close(): Promise<void>;
};

/** On a free port unless `port` is given (the end-to-end tests' mail catcher has a fixed one). */
export async function startSmtpReceiver(options: { port?: number } = {}): Promise<SmtpReceiver> {
  const arrived: Arrived[] = [];
  const refusals = new Map<string, { code: number; times: number }>();
  const waiters: { n: number; resolve: () => void }[] = [];
  let counting = false;
  let count = 0;
  const settle = () => {
    for (const w of [...waiters]) if ((counting ? count : arrived.length) >= w.n) w.resolve();
  };
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    logger: false,
    size: 2 * 1024 * 1024,
    onAuth(auth, _session, callback) {
      if (auth.username && auth.password) callback(null, { user: auth.username });
      else callback(new Error("Invalid username or password"));
    },
    onRcptTo(address, _session, callback) {
      const refusal = refusals.get(address.address.toLowerCase());
      if (refusal && refusal.times > 0) {
        refusal.times--;
        const error = Object.assign(new Error(refusal.code >= 500 ? `No such user here <${address.address}>` : "Mailbox busy, try again later"), {
          responseCode: refusal.code,
        });
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      if (counting) {
        stream.on("data", () => undefined);
        stream.on("end", () => {
          count++;
          settle();
          callback();
        });
        return;
      }
      simpleParser(stream).then(
        (mail) => {
          arrived.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address),
            mail,
          });
          count++;
          settle();
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://tester:secret@127.0.0.1:${port}`,
    arrived,
    countOnly(on) {
      counting = on;
    },
    count: () => count,
    refuse(address, code, times = 1) {
      refusals.set(address.toLowerCase(), { code, times });
    },
    waitFor(n, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${arrived.length} of ${n} messages arrived within ${timeoutMs} ms`)), timeoutMs);
        const waiter = {
          n,
          resolve: () => {
            clearTimeout(timer);
            waiters.splice(waiters.indexOf(waiter), 1);
            resolve(arrived);
          },
        };
        waiters.push(waiter);
        settle();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
