// E-mails per second to an SMTP server on loopback (testing/smtp-receiver.ts, with a login, counting
// what arrives without parsing it): the weekly digest (text and HTML, ~15 KB) sent through
// lib/alerts/email.ts (nodemailer, a pooled transport of 4 connections), 16 sends waiting at once, as
// the alert sender would start them; 1,000 messages after a warm-up of 100, three times. What it
// measures is the dashboard's side (composing, MIME, the SMTP exchange on a fast server): a real mail
// server is slower, and its own limits decide there.
import { fileURLToPath } from "node:url";
import { benchChildMain, runBenchChild } from "./support";

export const name = "e-mail: digests sent per second to an SMTP server on loopback (nodemailer, 4 pooled connections, 16 sends at once)";

const MESSAGES = Number(process.env.BENCH_EMAILS ?? 1_000);
const AT_ONCE = 16;

async function emailsPerSecond(): Promise<{ lines: string[] }> {
  const { startSmtpReceiver } = await import("../testing/smtp-receiver");
  const { createMailer, eventMail } = await import("../lib/alerts/email");
  const { digestEvent } = await import("../lib/alerts/digest");
  const week = "?from=2026-11-16&to=2026-11-22&tz=Europe%2FBerlin";
  const base = "https://dash.example.com";
  const figures = {
    week: { from: "2026-11-16", to: "2026-11-22" },
    previous: { from: "2026-11-09", to: "2026-11-15" },
    tz: "Europe/Berlin",
    totals: {
      ok: true as const,
      value: { visitors: { now: 10_450, before: 8_350 }, aiVisitors: { now: 2_100, before: 1_900 }, conversions: { now: 300, before: 310 } },
    },
    platforms: {
      ok: true as const,
      value: ["ChatGPT", "Claude", "Perplexity", "Gemini"].map((name, i) => ({
        platform: name.toLowerCase(),
        name,
        mentions: { now: 120 - i * 20, before: 100 - i * 10 },
        visitors: 900 - i * 150,
        conversions: 40 - i * 8,
      })),
    },
    score: { now: 66.5, change: -3.5 },
    rank: { now: 2, of: 8, was: 3 },
    negativeMentions: { ok: true as const, value: [{ platform: "Claude", query: "is it any good for teams?", snippet: "Some users report slow exports." }] },
    notes: [{ date: "2026-11-18", endDate: null, text: "Webinar with partners" }],
    url: `${base}/${week}`,
    links: {
      visitors: `${base}/${week}`,
      aiVisitors: `${base}/platforms${week}`,
      conversions: `${base}/${week}`,
      score: `${base}/intelligence${week}`,
      rank: `${base}/intelligence${week}`,
      platforms: `${base}/platforms${week}`,
      notes: `${base}/${week}`,
    },
  };
  const unsubscribe = `${base}/mail/unsubscribe/dst_AAAAAAAAAAAAAAAA.token`;
  const content = eventMail(digestEvent(figures, Date.now()), "Weekly", unsubscribe, figures);
  const bytes = Buffer.byteLength(content.text) + Buffer.byteLength(content.html);

  const smtp = await startSmtpReceiver();
  smtp.countOnly(true);
  const mailer = createMailer({ smtpUrl: smtp.url, from: "Workspace Analytics <alerts@example.com>", timeoutMs: 10_000 });
  const lines: string[] = [];
  try {
    const sendMany = async (n: number, offset: number) => {
      let next = 0;
      const worker = async () => {
        while (next < n) {
          const i = offset + next++;
          const result = await mailer.send({ ...content, to: `reader${i % 50}@example.org`, unsubscribeUrl: unsubscribe, id: `evt_bench${i}` });
          if (!result.ok) throw new Error(result.error ?? "not sent");
        }
      };
      await Promise.all(Array.from({ length: AT_ONCE }, worker));
    };
    await sendMany(100, 0);
    const rates: number[] = [];
    for (let round = 0; round < 3; round++) {
      const before = smtp.count();
      const started = performance.now();
      await sendMany(MESSAGES, 1_000 + round * MESSAGES);
      const seconds = (performance.now() - started) / 1000;
      if (smtp.count() - before !== MESSAGES) throw new Error(`${smtp.count() - before} of ${MESSAGES} arrived`);
      rates.push(MESSAGES / seconds);
      lines.push(
        `${MESSAGES} digests (${(bytes / 1024).toFixed(1)} KB of text and HTML each) to the loopback server: ${seconds.toFixed(2)} s = ${(MESSAGES / seconds).toFixed(0)} e-mails/s`,
      );
    }
    const sorted = [...rates].sort((a, b) => a - b);
    lines.push(`median: ${sorted[1]!.toFixed(0)} e-mails/s`);
  } finally {
    mailer.close();
    await smtp.close();
  }
  return { lines };
}

const SCENARIOS = [{ id: "emails" }] as const;

export async function run(): Promise<void> {
  const { lines } = await runBenchChild<{ lines: string[] }>(fileURLToPath(import.meta.url), "emails", { EMAIL_BENCH_CHILD: "1" });
  for (const line of lines) console.log(line);
}

benchChildMain("EMAIL_BENCH_CHILD", SCENARIOS, () => emailsPerSecond());
