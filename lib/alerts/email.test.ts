// E-mails through a real SMTP server on loopback (testing/smtp-receiver.ts: smtp-server, with a
// login), parsed by mailparser as a mail client reads them: the confirmation, an alert, a resolution
// and the weekly digest each arrive as text and HTML from MAIL_FROM to the one address, with a
// Message-ID of the event, List-Unsubscribe (https) and List-Unsubscribe-Post (RFC 8058); their links
// (the confirmation page, unsubscribe, the dashboard); an HTML part that fetches nothing and declares
// light and dark. A 4xx at RCPT TO is a failed attempt to try again, a 5xx a refused address (the
// destination stops), and neither error names the address in full.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ParsedMail } from "mailparser";
import { startSmtpReceiver, type SmtpReceiver } from "@/testing/smtp-receiver";
import { digestEvent, type DigestFigures } from "./digest";
import { addressHint, confirmationMail, createMailer, eventMail, fromDomain, mailFailure, maskAddresses, smtpOptions, type Mailer } from "./email";
import type { EventBody } from "./messages";

const FROM = "Workspace Analytics <alerts@example.com>";
const TO = "maria.lopez@example.org";
const UNSUBSCRIBE = "https://dash.example.com/mail/unsubscribe/dst_AAAAAAAAAAAAAAAA.tok";
const CONFIRM = "https://dash.example.com/mail/confirm/dst_AAAAAAAAAAAAAAAA.tok";

const figures: DigestFigures = {
  week: { from: "2026-11-16", to: "2026-11-22" },
  previous: { from: "2026-11-09", to: "2026-11-15" },
  tz: "Europe/Berlin",
  totals: { ok: true, value: { visitors: { now: 1045, before: 835 }, aiVisitors: { now: 21, before: 19 }, conversions: { now: 30, before: 31 } } },
  platforms: { ok: true, value: [{ platform: "chatgpt", name: "ChatGPT", mentions: { now: 12, before: 4 }, visitors: 90, conversions: 4 }] },
  score: { now: 66.5, change: -3.5 },
  rank: { now: 2, of: 8, was: 3 },
  negativeMentions: { ok: true, value: [] },
  notes: [{ date: "2026-11-18", endDate: null, text: "<b>Webinar</b> & launch" }],
  url: "https://dash.example.com/?from=2026-11-16&to=2026-11-22",
  links: {
    visitors: "https://dash.example.com/?from=2026-11-16&to=2026-11-22&v",
    aiVisitors: "https://dash.example.com/platforms?from=2026-11-16&to=2026-11-22&a",
    conversions: "https://dash.example.com/?from=2026-11-16&to=2026-11-22&c",
    score: "https://dash.example.com/intelligence?from=2026-11-16&to=2026-11-22&s",
    rank: "https://dash.example.com/intelligence?from=2026-11-16&to=2026-11-22&r",
    platforms: "https://dash.example.com/platforms?from=2026-11-16&to=2026-11-22&p",
    notes: "https://dash.example.com/?from=2026-11-16&to=2026-11-22&n",
  },
};

const header = (mail: ParsedMail, name: string) => mail.headerLines.find((h) => h.key === name.toLowerCase())?.line.replace(/^[^:]+:\s*/, "");
const links = (html: string) => [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));

describe("e-mail through a loopback SMTP server", () => {
  let smtp: SmtpReceiver;
  let mailer: Mailer;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    mailer = createMailer({ smtpUrl: smtp.url, from: FROM, timeoutMs: 5_000 });
  });
  afterAll(async () => {
    mailer.close();
    await smtp.close();
  });

  const sendAndRead = async (content: { subject: string; text: string; html: string }, id: string) => {
    const before = smtp.arrived.length;
    const result = await mailer.send({ ...content, to: TO, unsubscribeUrl: UNSUBSCRIBE, id });
    expect(result).toMatchObject({ ok: true, status: 250, addressRefused: false });
    const [arrived] = (await smtp.waitFor(before + 1)).slice(before);
    return arrived!;
  };

  it("sends the confirmation alone: text and HTML, from MAIL_FROM to the address, with one-click unsubscribe and the page's link", async () => {
    const { from, to, mail } = await sendAndRead(
      confirmationMail({ destinationName: "Maria's inbox", confirmUrl: CONFIRM, unsubscribeUrl: UNSUBSCRIBE }),
      "evt_confirm1",
    );
    expect(from).toBe("alerts@example.com");
    expect(to).toEqual([TO]);
    expect(mail.from?.text).toBe('"Workspace Analytics" <alerts@example.com>');
    expect(mail.subject).toBe("Confirm that Workspace Analytics may e-mail you");
    expect(mail.messageId).toBe("<evt_confirm1@example.com>");
    expect(header(mail, "List-Unsubscribe")).toBe(`<${UNSUBSCRIBE}>`);
    expect(header(mail, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    expect(mail.text).toContain(`Confirm on this page (it has a button to press): ${CONFIRM}`);
    expect(mail.text).toContain(`Unsubscribe (stops every e-mail to this address from this destination): ${UNSUBSCRIBE}`);
    expect(mail.text).toContain("Nothing more is sent here until you confirm.");
    const html = String(mail.html);
    expect(links(html)).toEqual([CONFIRM, UNSUBSCRIBE]);
    expect(html).toContain("Maria&#39;s inbox");
    expect(html).toContain('<meta name="color-scheme" content="light dark">');
    expect(html).not.toMatch(/<img|<script|<link|src=|url\(/i);
  });

  it("sends an alert and its resolution with the dashboard's link, text from people escaped", async () => {
    const firing: EventBody = {
      type: "alert.firing",
      timestamp: "2026-11-23T09:00:00.000Z",
      data: {
        rule: { id: "rule_1", kind: "score_below", threshold: 60 },
        value: 55,
        message: "The score fell to 55 <below 60>",
        url: "https://dash.example.com/",
      },
    };
    const { mail } = await sendAndRead(eventMail(firing, "Ops", UNSUBSCRIBE), "evt_firing1");
    expect(mail.subject).toBe("Alert: The score fell to 55 <below 60>");
    expect(mail.text).toContain("The score fell to 55 <below 60>");
    expect(mail.text).toContain("Open in the dashboard: https://dash.example.com/");
    expect(String(mail.html)).toContain("The score fell to 55 &lt;below 60&gt;");
    expect(links(String(mail.html))).toEqual(["https://dash.example.com/", UNSUBSCRIBE]);
    expect(header(mail, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");

    const resolved: EventBody = { ...firing, type: "alert.resolved", data: { ...firing.data, message: "The score is back at 61" } };
    const back = await sendAndRead(eventMail(resolved, "Ops", UNSUBSCRIBE), "evt_resolved1");
    expect(back.mail.subject).toBe("Resolved: The score is back at 61");
    expect(String(back.mail.html)).toContain("Back to normal");
  });

  it("sends the weekly digest drawn from its figures: tables, each change and whether it is beyond chance, notes escaped, its links", async () => {
    const event = digestEvent(figures, Date.parse("2026-11-23T08:00:00Z"));
    const { mail } = await sendAndRead(eventMail(event, "Weekly", UNSUBSCRIBE, figures), "evt_digest1");
    expect(mail.subject).toMatch(/^Weekly digest, 16.+22 Nov 2026: 1,045 visitors/);
    const html = String(mail.html);
    expect(html).toContain("<caption");
    expect(html).toContain("within normal variation"); // 21 against 19 AI visitors: chance alone
    expect(html).toContain("&lt;b&gt;Webinar&lt;/b&gt; &amp; launch");
    // One link per figure, to its page, then the week and unsubscribe.
    const l = figures.links!;
    expect(links(html)).toEqual([l.visitors, l.aiVisitors, l.conversions, l.score, l.rank, l.platforms, l.notes, figures.url, UNSUBSCRIBE]);
    expect(mail.text).toContain("From mention to conversion, per platform");
    expect(mail.text).toContain(`  Visitors: ${l.visitors}`);
    expect(mail.text).toContain("Rank: 2 of 8 (was 3)");
    expect(mail.text).toContain(UNSUBSCRIBE);
  });

  it("answers a 4xx at RCPT TO as an attempt to try again, and the next attempt arrives", async () => {
    smtp.refuse(TO, 450);
    const content = eventMail({ type: "test", timestamp: "2026-11-23T09:00:00.000Z", data: { message: "A test" } }, "Ops", UNSUBSCRIBE);
    const first = await mailer.send({ ...content, to: TO, unsubscribeUrl: UNSUBSCRIBE, id: "evt_test1" });
    expect(first).toMatchObject({ ok: false, status: 450, addressRefused: false, timedOut: false });
    expect(first.error).toMatch(/^the mail server answered 450/);
    expect(first.error).not.toContain(TO);
    const before = smtp.arrived.length;
    expect(await mailer.send({ ...content, to: TO, unsubscribeUrl: UNSUBSCRIBE, id: "evt_test1" })).toMatchObject({ ok: true });
    await smtp.waitFor(before + 1);
  });

  it("answers a 5xx refusal of the address as refused for good, never naming it in full", async () => {
    smtp.refuse("gone@example.org", 550);
    const content = eventMail({ type: "test", timestamp: "2026-11-23T09:00:00.000Z", data: { message: "A test" } }, "Ops", UNSUBSCRIBE);
    const result = await mailer.send({ ...content, to: "gone@example.org", unsubscribeUrl: UNSUBSCRIBE, id: "evt_test2" });
    expect(result).toMatchObject({ ok: false, status: 550, addressRefused: true });
    expect(result.error).toMatch(/^the mail server refused the address \(550\)/);
    expect(result.error).not.toContain("gone@example.org");
    expect(result.error).toContain("g…@example.org");
  });

  it("says a server that cannot be reached, without a reply code", async () => {
    const nowhere = createMailer({ smtpUrl: "smtp://127.0.0.1:1", from: FROM, timeoutMs: 2_000 });
    const result = await nowhere.send({ subject: "s", text: "t", html: "<p>t</p>", to: TO, unsubscribeUrl: UNSUBSCRIBE, id: "evt_x" });
    nowhere.close();
    expect(result).toMatchObject({ ok: false, status: null, addressRefused: false });
    expect(result.error).toMatch(/^could not reach the mail server/);
  });
});

describe("e-mail's small parts", () => {
  it("masks addresses as the first character and the domain", () => {
    expect(addressHint("maria.lopez@example.org")).toBe("m…@example.org");
    expect(maskAddresses("550 5.1.1 <maria.lopez@example.org>: Recipient address rejected")).toBe("550 5.1.1 m…@example.org: Recipient address rejected");
    expect(maskAddresses("Can't send mail - all recipients were rejected: 550 a@b.co, x@y.org")).not.toMatch(/a@b\.co|x@y\.org/);
  });

  it("reads SMTP_URL (smtp:// STARTTLS on 587, smtps:// TLS on 465, login percent-decoded) and MAIL_FROM's domain", () => {
    expect(smtpOptions("smtp://us%40er:p%3Ass@mail.example.com", 10_000)).toMatchObject({
      host: "mail.example.com",
      port: 587,
      secure: false,
      auth: { user: "us@er", pass: "p:ss" },
    });
    expect(smtpOptions("smtps://mail.example.com:2465", 10_000)).toMatchObject({ port: 2465, secure: true });
    expect(smtpOptions("smtp://mail.example.com:25", 10_000)).not.toHaveProperty("auth");
    expect(fromDomain(FROM)).toBe("example.com");
    expect(fromDomain("alerts@mail.example.net")).toBe("mail.example.net");
  });

  it("reads a failure from its reply code: 4xx again, 5xx at RCPT TO refused, elsewhere a failed attempt", () => {
    const e = (props: object) => Object.assign(new Error("x"), props);
    expect(mailFailure(e({ code: "EENVELOPE", command: "RCPT TO", responseCode: 452 }))).toMatchObject({ status: 452, addressRefused: false });
    expect(mailFailure(e({ code: "EENVELOPE", command: "RCPT TO", responseCode: 550 }))).toMatchObject({ status: 550, addressRefused: true });
    expect(mailFailure(e({ code: "EMESSAGE", command: "DATA", responseCode: 554 }))).toMatchObject({ status: 554, addressRefused: false });
    expect(mailFailure(e({ code: "ETIMEDOUT" }))).toMatchObject({ status: null, timedOut: true });
  });
});
