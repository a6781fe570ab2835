// E-mails through a real SMTP server on loopback (testing/smtp-receiver.ts: smtp-server, with a
// login), parsed by mailparser as a mail client reads them: the confirmation, an alert, a resolution
// and the weekly digest each arrive as text and HTML from MAIL_FROM to the one address, with a
// Message-ID of the event, List-Unsubscribe (https) and List-Unsubscribe-Post (RFC 8058); their links
// (the confirmation page, unsubscribe, the dashboard); an HTML part that fetches nothing and declares
// light and dark. A 4xx at RCPT TO is a failed attempt to try again, a 5xx a refused address (the
// destination stops), and neither error names the address in full.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { STORE_KINDS, storesForFile } from "@/testing/stores";
import { TEST_NOW } from "@/testing/in-process";
import { BACKOFF_MS, createDeliverer } from "./deliver";
import type { ParsedMail } from "mailparser";
import { startSmtpReceiver, type SmtpReceiver } from "@/testing/smtp-receiver";
import { digestEvent, type DigestFigures } from "./digest";
import {
  addressHint,
  confirmationMail,
  createMailer,
  emailSender,
  eventMail,
  fromDomain,
  mailFailure,
  maskAddresses,
  smtpOptions,
  unsubscribePath,
  type Mailer,
} from "./email";
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

describe.each(STORE_KINDS)("e-mail destinations through the alert sender (%s)", (kind) => {
  const stores = storesForFile();
  const T0 = Date.parse(TEST_NOW);
  let now = T0;
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

  async function setup(to: string) {
    now = T0;
    const store = await stores.open(kind, { now: () => now });
    const workspace = (await store.workspaces.workspaceForKey(`svc_sk_test_email_${randomBytes(6).toString("hex")}`)).id;
    const made = await store.alerts.createEmailDestination(workspace, { name: "Maria", to, toHint: addressHint(to) });
    const sender = createDeliverer({
      store: async () => store,
      now: () => now,
      instance: "a",
      send: () => Promise.reject(new Error("no webhook here")),
      sendMail: emailSender(mailer, "https://dash.example.com"),
      log: () => {},
    });
    let n = 0;
    const enqueue = (body: EventBody) => store.alerts.enqueue(workspace, { dedupeKey: `k${n++}`, type: body.type, body }, [made.destination.id]);
    return { store, workspace, ...made, sender, enqueue };
  }
  const firing: EventBody = { type: "alert.firing", timestamp: TEST_NOW, data: { message: "The score fell to 55", url: "https://dash.example.com/" } };

  it("sends nothing to an unconfirmed address; once confirmed, the alert and the digest (drawn from its figures) arrive with its own unsubscribe link", async () => {
    const to = `a${randomBytes(4).toString("hex")}@example.org`;
    const { store, workspace, sender, enqueue, confirmToken, unsubscribeToken, destination } = await setup(to);
    expect(await enqueue(firing)).toEqual([]);
    expect(await sender.deliverDue()).toBe(0);
    expect(smtp.arrived.filter((a) => a.to.includes(to))).toHaveLength(0);

    await store.alerts.confirmEmail(confirmToken);
    await enqueue(firing);
    await enqueue(digestEvent(figures, T0));
    expect(await sender.deliverDue()).toBe(2);
    const mine = smtp.arrived.filter((a) => a.to.includes(to));
    // One at a time to a destination, in either order (both were due at once).
    mine.sort((x, y) => String(x.mail.subject).localeCompare(String(y.mail.subject)));
    expect(mine.map((a) => a.mail.subject)).toEqual(["Alert: The score fell to 55", expect.stringMatching(/^Weekly digest, /)]);
    const unsubscribe = `https://dash.example.com${unsubscribePath(unsubscribeToken)}`;
    for (const { mail } of mine) {
      expect(header(mail, "List-Unsubscribe")).toBe(`<${unsubscribe}>`);
      expect(header(mail, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
      expect(mail.messageId).toMatch(/^<evt_[A-Za-z0-9_-]{16}@example\.com>$/);
      expect(unsubscribe).not.toContain(destination.id);
    }
    expect(String(mine[1]!.mail.html)).toContain("<caption");
    expect(links(String(mine[1]!.mail.html))).toContain(figures.links!.score);
    expect((await store.alerts.attempts(workspace)).map((a) => a.status)).toEqual(["delivered", "delivered"]);
    await store.close();
  });

  it("tries a 4xx again after the webhooks' first wait, and stops the destination on a 5xx refusal of the address, saying why", async () => {
    const busy = `b${randomBytes(4).toString("hex")}@example.org`;
    const first = await setup(busy);
    await first.store.alerts.confirmEmail(first.confirmToken);
    smtp.refuse(busy, 451);
    await first.enqueue(firing);
    expect(await first.sender.deliverDue()).toBe(1);
    expect(await first.store.alerts.attempts(first.workspace)).toEqual([
      expect.objectContaining({ status: "retrying", responseStatus: 451, error: expect.stringMatching(/^the mail server answered 451/) }),
    ]);
    expect(smtp.arrived.filter((a) => a.to.includes(busy))).toHaveLength(0);
    now += BACKOFF_MS[0];
    expect(await first.sender.deliverDue()).toBe(1);
    expect(smtp.arrived.filter((a) => a.to.includes(busy))).toHaveLength(1);
    expect((await first.store.alerts.attempts(first.workspace)).map((a) => a.status)).toEqual(["delivered", "retrying"]);
    await first.store.close();

    const gone = `g${randomBytes(4).toString("hex")}@example.org`;
    const second = await setup(gone);
    await second.store.alerts.confirmEmail(second.confirmToken);
    smtp.refuse(gone, 550, 10);
    await second.enqueue(firing);
    await second.enqueue({ ...firing, type: "alert.resolved" });
    expect(await second.sender.deliverDue()).toBe(1);
    const [attempt] = await second.store.alerts.attempts(second.workspace);
    expect(attempt).toMatchObject({ status: "failed", responseStatus: 550 });
    expect(attempt!.error).not.toContain(gone);
    const stopped = await second.store.alerts.destination(second.workspace, second.destination.id);
    expect(stopped).toMatchObject({ status: "stopped", stoppedReason: expect.stringMatching(/^The mail server refused the address on .+ \(550\)/) });
    now += BACKOFF_MS[4];
    expect(await second.sender.deliverDue()).toBe(0);
    await second.store.close();
  });
});
