// One HTTP POST of an alert to a destination, and what came of it. A signed webhook receives the
// event's JSON body with the Standard Webhooks headers (`webhook-id`: the event's id, the same on
// every retry so a receiver can drop a repeat; `webhook-timestamp`; `webhook-signature`: HMAC-SHA256
// by the `standardwebhooks` library under the destination's `whsec_` secret); Slack receives its own
// `{text, blocks}`. Redirects are not followed (a 3xx is a failed attempt: the address to call is
// the one the user saved and this server checked), every address is checked as the socket connects
// (destination-url.ts), and the whole exchange is bounded by a 10 s timeout.
import "server-only";
import http from "node:http";
import https from "node:https";
import { Webhook } from "standardwebhooks";
import { checkedLookup, isDestinationRefused, parseDestinationUrl } from "./destination-url";

/** One send's timeout (ALERTS_SEND_TIMEOUT_MS in the server). */
export const SEND_TIMEOUT_MS = 10_000;

/** What one attempt came to: the receiver's status (null when none came back) and what went wrong. */
export type SendResult = {
  status: number | null;
  ok: boolean;
  /** The receiver's Retry-After, in ms from now, when it sent one that can be read. */
  retryAfterMs: number | null;
  error: string | null;
  /** No answer came within the timeout (what makes a destination rest when it happens again and again). */
  timedOut: boolean;
};

export type OutgoingMessage = {
  /** The event's id: `webhook-id`, the same on every attempt. */
  id: string;
  /** When the attempt is made (the `webhook-timestamp`). */
  at: number;
  /** The exact bytes to send (JSON). */
  body: string;
};

/** The destination's headers for `message`: JSON, and for a signed webhook the three Standard Webhooks headers. */
export function headersFor(message: OutgoingMessage, secret: string | null): Record<string, string> {
  const headers: Record<string, string> = { "content-type": "application/json", "user-agent": "workspace-analytics-alerts/1" };
  if (secret !== null) {
    const timestamp = new Date(message.at);
    headers["webhook-id"] = message.id;
    headers["webhook-timestamp"] = String(Math.floor(message.at / 1000));
    headers["webhook-signature"] = new Webhook(secret).sign(message.id, timestamp, message.body);
  }
  return headers;
}

/** Retry-After as ms from `now`: delay-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now: number): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export type SendOptions = { allowPrivate: boolean; timeoutMs?: number; now: () => number };

/** Posts `message` to `rawUrl`; never throws (every failure is in the result). */
export async function send(rawUrl: string, secret: string | null, message: OutgoingMessage, options: SendOptions): Promise<SendResult> {
  let url: URL;
  try {
    url = parseDestinationUrl(rawUrl, options.allowPrivate);
  } catch (error) {
    return { status: null, ok: false, retryAfterMs: null, error: error instanceof Error ? error.message : String(error), timedOut: false };
  }
  const headers = headersFor(message, secret);
  const timeoutMs = options.timeoutMs ?? SEND_TIMEOUT_MS;
  const client = url.protocol === "https:" ? https : http;

  return new Promise<SendResult>((resolve) => {
    let settled = false;
    let timedOut = false;
    const done = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = client.request(url, {
      method: "POST",
      headers: { ...headers, "content-length": String(Buffer.byteLength(message.body)) },
      lookup: checkedLookup(options.allowPrivate) as unknown as typeof import("node:dns").lookup,
      agent: false,
    });
    const timer = setTimeout(() => {
      timedOut = true;
      request.destroy(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
    timer.unref?.();
    request.on("error", (error: Error) => {
      const { message } = error;
      const refused = isDestinationRefused(error) || (error as NodeJS.ErrnoException).code === "EREFUSED";
      done({ status: null, ok: false, retryAfterMs: null, error: refused ? message : `could not reach the receiver: ${message}`, timedOut });
    });
    request.on("response", (response) => {
      const status = response.statusCode ?? 0;
      const retryHeader = response.headers["retry-after"];
      const retryAfter = retryAfterMs(Array.isArray(retryHeader) ? retryHeader[0] : retryHeader, options.now());
      // The body is not needed: read (up to a bound) and dropped so the socket can close.
      let read = 0;
      response.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (read > 64 * 1024) response.destroy();
      });
      const finish = () => {
        const ok = status >= 200 && status < 300;
        const error = ok
          ? null
          : status >= 300 && status < 400
            ? `the receiver answered ${status} (a redirect), which is not followed: save the address it points to instead`
            : `the receiver answered ${status}`;
        done({ status, ok, retryAfterMs: retryAfter, error, timedOut: false });
      };
      response.on("end", finish);
      response.on("close", finish);
      response.on("error", finish);
    });
    request.end(message.body);
  });
}
