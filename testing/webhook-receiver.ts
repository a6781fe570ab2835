// A real HTTP receiver for the alerts' tests, on 127.0.0.1 and a free port: it keeps every request
// (headers and body as received), answers what the test says (a status, a Retry-After, a redirect, or
// nothing at all for a while), counts the requests it holds at once, and checks a signed webhook's headers with the `standardwebhooks`
// library, as a receiver in the wild would. Stopped by the test that started it.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export type Received = { path: string; headers: http.IncomingHttpHeaders; body: string; json: unknown };

export type Answer = { status: number; headers?: Record<string, string>; delayMs?: number };

export type Receiver = {
  url: string;
  received: Received[];
  /** How many answers it has written (a request waiting for its delay is not answered yet). */
  answered(): number;
  /** The most requests it held at once (from arrival until its answer ended or the sender gave up). */
  maxInFlight(): number;
  /** What the next requests get, in turn (then 200). */
  answer(...answers: Answer[]): void;
  /** Resolves when `n` requests have arrived (or rejects after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
};

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const queue: Answer[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  let answered = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let json: unknown = undefined;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      received.push({ path: req.url ?? "/", headers: req.headers, body, json });
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      res.on("close", () => inFlight--);
      for (const w of waiters.splice(0)) (received.length >= w.n ? w.resolve : () => waiters.push(w))();
      const answer = queue.shift() ?? { status: 200 };
      const reply = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, answer.headers ?? {});
        res.end("ok");
        answered++;
      };
      if (answer.delayMs) setTimeout(reply, answer.delayMs).unref();
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/analytics`,
    received,
    answered: () => answered,
    maxInFlight: () => maxInFlight,
    answer: (...answers) => void queue.push(...answers),
    waitFor(n, timeoutMs = 5_000) {
      if (received.length >= n) return Promise.resolve(received);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the receiver got ${received.length} of ${n} requests in ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ n, resolve: () => (clearTimeout(timer), resolve(received)) });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Checks a received signed webhook with the library a receiver uses: the signature over the id,
 * timestamp and body under `secret`. The timestamp's freshness is the receiver's clock's business;
 * tests on fake time compare it with their own clock instead (the library's `verify` would refuse a
 * timestamp minutes away from the real one).
 */
export function verifySignature(secret: string, r: Received): boolean {
  const id = String(r.headers["webhook-id"] ?? "");
  const timestamp = Number(r.headers["webhook-timestamp"]);
  const signature = String(r.headers["webhook-signature"] ?? "");
  if (!id || !Number.isInteger(timestamp) || !signature) return false;
  const expected = new Webhook(secret).sign(id, new Date(timestamp * 1000), r.body);
  // The header may carry several space-separated signatures (secret rotation); one must match.
  return signature.split(" ").includes(expected);
}
