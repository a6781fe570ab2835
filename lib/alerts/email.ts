// E-mail destinations' messages and their sending. Every message is text and HTML (the HTML one
// self-contained document that reads in any client, light or dark: digest-html.ts), and carries
// `List-Unsubscribe` (an https link) with `List-Unsubscribe-Post: List-Unsubscribe=One-Click`
// (RFC 8058), so a mail client's "Unsubscribe" stops the destination with one POST. A confirmation
// asks the recipient to open a page whose button confirms (a GET confirms nothing: mail scanners
// follow links). Sending is SMTP through nodemailer (SMTP_URL, MAIL_FROM), one pooled transport per
// process; what came of a send is a SendResult as a webhook's is, read from the server's reply code:
// a 4xx is a failed attempt tried again (as a webhook's 5xx), a 5xx refusal of the address
// (`RCPT TO`) refuses it for good (the destination stops, saying why). Addresses never reach a log
// or an error in full: an error names `m…@example.com`.
import "server-only";
import nodemailer from "nodemailer";
import type { DigestFigures } from "./digest";
import { digestSubject } from "./digest";
import { digestHtml, escapeHtml, mailButton, mailDocument, mailParagraph } from "./digest-html";
import { eventText, type EventBody } from "./messages";
import type { MailSender } from "./deliver";
import type { SendResult } from "./send";

/** An address as shown and logged: its first character and its domain ("m…@example.com"). */
export function addressHint(address: string): string {
  const at = address.lastIndexOf("@");
  if (at <= 0) return "…";
  return `${[...address][0]}…${address.slice(at)}`;
}

/** `text` with every address in it masked (an SMTP server's reply often repeats the address). */
export function maskAddresses(text: string): string {
  return text.replace(/<?([^\s<>@"',;()]+@[^\s<>@"',;()]+?)(\.?)>?(?=[\s"',;:()]|$)/g, (_, address: string, dot: string) => `${addressHint(address)}${dot}`);
}

/** What a message says, both ways. */
export type MailContent = { subject: string; text: string; html: string };

/** A message with where it goes and the links every message carries. */
export type OutgoingMail = MailContent & {
  to: string;
  /** The one-click unsubscribe link (https), in `List-Unsubscribe` and at the foot of the message. */
  unsubscribeUrl: string;
  /** The Message-ID's left part: the event's id (the same on every attempt, so a client can drop a repeat). */
  id: string;
};

/** The foot of every message: why it came and how to stop it. */
function footer(destinationName: string, unsubscribeUrl: string): { text: string; html: string } {
  const why = `You get this because this address was added as the e-mail destination “${destinationName}” of a Workspace Analytics dashboard.`;
  return {
    text: `--\n${why}\nUnsubscribe (stops every e-mail to this address from this destination): ${unsubscribeUrl}`,
    html: mailParagraph(
      `${escapeHtml(why)} <a href="${escapeHtml(unsubscribeUrl)}" class="wa-muted" style="color:inherit;text-decoration:underline;">Unsubscribe</a> stops every e-mail to this address from this destination.`,
      true,
    ),
  };
}

/** The confirmation: nothing else is sent to the address until its recipient confirms on the page of `confirmUrl`. */
export function confirmationMail(input: { destinationName: string; confirmUrl: string; unsubscribeUrl: string }): MailContent {
  const subject = "Confirm that Workspace Analytics may e-mail you";
  const ask = `Someone added this address as the e-mail destination “${input.destinationName}” of a Workspace Analytics dashboard, for its alerts and weekly digest. Nothing more is sent here until you confirm.`;
  const ignore = "If this was not you or you do not want these e-mails, ignore this message: without a confirmation nothing else comes.";
  const foot = footer(input.destinationName, input.unsubscribeUrl);
  return {
    subject,
    text: [subject, ask, `Confirm on this page (it has a button to press): ${input.confirmUrl}`, ignore, foot.text].join("\n\n"),
    html: mailDocument({
      subject,
      kicker: "Workspace Analytics",
      title: "Confirm your address",
      lead: escapeHtml(ask),
      body: [mailButton(input.confirmUrl, "Open the confirmation page"), mailParagraph(escapeHtml(ignore)), foot.html].join("\n"),
    }),
  };
}

const TITLES: Record<EventBody["type"], string> = {
  "alert.firing": "Alert",
  "alert.resolved": "Resolved",
  "digest.weekly": "Weekly digest",
  test: "Test message",
};

/**
 * An event as an e-mail: an alert, a resolution or a test as a short message with its link; the
 * weekly digest drawn from its figures (tables, each change and whether it is within normal
 * variation) when `figures` are given, from its sections otherwise.
 */
export function eventMail(
  event: EventBody,
  destinationName: string,
  unsubscribeUrl: string,
  figures: DigestFigures | undefined = event.data.figures,
): MailContent {
  const foot = footer(destinationName, unsubscribeUrl);
  const title = TITLES[event.type] ?? "Workspace Analytics";
  const text = `${eventText(event)}\n\n${foot.text}`;
  if (event.type === "digest.weekly" && figures) {
    const subject = digestSubject(figures);
    return { subject, text, html: digestHtml(figures, subject, foot.html) };
  }
  const oneLine = event.data.message.replace(/\s+/g, " ").trim();
  const subject = `${title}: ${oneLine.length > 120 ? `${oneLine.slice(0, 119)}…` : oneLine}`;
  const sections = (event.data.sections ?? [])
    .filter((s) => s.lines.length > 0)
    .map(
      (s) =>
        `${mailParagraph(`<strong>${escapeHtml(s.title)}</strong>`)}<ul style="margin:-8px 0 16px;padding:0 0 0 20px;">${s.lines.map((l) => `<li class="wa-text" style="margin:0 0 6px;font-size:14px;line-height:20px;">${escapeHtml(l)}</li>`).join("")}</ul>`,
    );
  return {
    subject,
    text,
    html: mailDocument({
      subject,
      kicker: `${title} · Workspace Analytics`,
      title: event.type === "alert.resolved" ? "Back to normal" : title,
      lead: escapeHtml(event.data.message),
      body: [...sections, event.data.url ? mailButton(event.data.url, "Open in the dashboard") : "", foot.html].filter(Boolean).join("\n"),
    }),
  };
}

/** What one send came to, as a webhook's, and whether the server refused the address itself (stop the destination). */
export type MailResult = SendResult & { addressRefused: boolean };

export type Mailer = {
  /** Sends `mail`; never throws (every failure is in the result). Bounded by the mailer's `timeoutMs` per step. */
  send(mail: OutgoingMail): Promise<MailResult>;
  close(): void;
};

/** The transport's options from SMTP_URL: smtp:// (STARTTLS when the server offers it) or smtps:// (TLS). */
export function smtpOptions(smtpUrl: string, timeoutMs: number) {
  const url = new URL(smtpUrl);
  const secure = url.protocol === "smtps:";
  const user = decodeURIComponent(url.username);
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    ...(user ? { auth: { user, pass: decodeURIComponent(url.password) } } : {}),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  };
}

/** The domain of MAIL_FROM's address: the right part of every Message-ID. */
export function fromDomain(from: string): string {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from.trim();
  return address.slice(address.lastIndexOf("@") + 1) || "localhost";
}

type SmtpError = Error & { code?: string; command?: string; responseCode?: number };

/** A failed send as a result: a 4xx tried again, a 5xx at `RCPT TO` the address refused, no answer a timeout. */
export function mailFailure(error: unknown): MailResult {
  const e = (error instanceof Error ? error : new Error(String(error))) as SmtpError;
  const status = typeof e.responseCode === "number" ? e.responseCode : null;
  const message = maskAddresses(e.message).replace(/\s+/g, " ").slice(0, 300);
  const addressRefused = status !== null && status >= 500 && status < 600 && (e.code === "EENVELOPE" || /RCPT/i.test(e.command ?? ""));
  const timedOut = e.code === "ETIMEDOUT";
  const said =
    status === null
      ? `could not reach the mail server: ${message}`
      : addressRefused
        ? `the mail server refused the address (${status}): ${message}`
        : `the mail server answered ${status}: ${message}`;
  return { status, ok: false, retryAfterMs: null, error: said, timedOut, addressRefused };
}

/** A mailer on SMTP_URL sending as MAIL_FROM (pooled: a few connections kept open and reused). */
export function createMailer(config: {
  smtpUrl: string;
  from: string;
  timeoutMs: number;
  maxConnections?: number;
  tls?: { rejectUnauthorized: boolean };
}): Mailer {
  const transport = nodemailer.createTransport({
    ...smtpOptions(config.smtpUrl, config.timeoutMs),
    pool: true,
    maxConnections: config.maxConnections ?? 4,
    ...(config.tls ? { tls: config.tls } : {}),
  });
  const domain = fromDomain(config.from);
  return {
    async send(mail) {
      try {
        await transport.sendMail({
          from: config.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: `<${mail.id}@${domain}>`,
          headers: {
            "List-Unsubscribe": `<${mail.unsubscribeUrl}>`,
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
          },
        });
        return { status: 250, ok: true, retryAfterMs: null, error: null, timedOut: false, addressRefused: false };
      } catch (error) {
        return mailFailure(error);
      }
    },
    close() {
      transport.close();
    },
  };
}

/** The path of an e-mail destination's one-click unsubscribe link (the page, and the POST of RFC 8058). */
export const unsubscribePath = (token: string) => `/mail/unsubscribe/${token}`;

/** The path of an e-mail destination's confirmation page (its button confirms: a GET confirms nothing). */
export const confirmPath = (token: string) => `/mail/confirm/${token}`;

/**
 * The alert sender's e-mail side (deliver.ts `sendMail`): an event to an e-mail destination through
 * `mailer`, its links on `publicUrl` (PUBLIC_URL: the background has no request to take an origin
 * from, so without it nothing is sent and the attempt says why). The unsubscribe token is the one
 * sealed with the destination (`secret`).
 */
export function emailSender(mailer: Mailer, publicUrl: string | undefined): MailSender {
  return async (destination, event) => {
    if (!publicUrl || destination.secret === null) {
      return {
        status: null,
        ok: false,
        retryAfterMs: null,
        error: "Not sent: an e-mail needs PUBLIC_URL on this server for its unsubscribe link.",
        timedOut: false,
        addressRefused: false,
      };
    }
    const unsubscribeUrl = `${publicUrl}${unsubscribePath(destination.secret)}`;
    const content = eventMail(event.body, destination.name, unsubscribeUrl);
    return mailer.send({ ...content, to: destination.url, unsubscribeUrl, id: event.id });
  };
}
