// The end-to-end tests' mail server: the tests' SMTP receiver (smtp-receiver.ts) on a fixed loopback
// port, and beside it a small HTTP reader of what arrived, so a test in the browser can follow the
// links of an e-mail the dashboard sent. Playwright starts it before the dashboard and stops it after.
//   MAIL_CATCHER_SMTP_PORT  the SMTP port (the dashboard's SMTP_URL points at it)
//   MAIL_CATCHER_PORT       the HTTP port:
//     GET /health                 200 once both listen
//     GET /messages?to=ADDRESS    the messages to ADDRESS, oldest first: {to, subject, text, html,
//                                 list_unsubscribe, list_unsubscribe_post, message_id}
// Loopback only; it keeps what arrives in memory for the run.
import { createServer } from "node:http";
import type { ParsedMail } from "mailparser";
import { startSmtpReceiver } from "./smtp-receiver";

const smtpPort = Number(process.env.MAIL_CATCHER_SMTP_PORT);
const httpPort = Number(process.env.MAIL_CATCHER_PORT);
if (!Number.isInteger(smtpPort) || !Number.isInteger(httpPort)) {
  console.error("mail-catcher: set MAIL_CATCHER_SMTP_PORT and MAIL_CATCHER_PORT");
  process.exit(2);
}

async function main() {
  const smtp = await startSmtpReceiver({ port: smtpPort });
  // A header as it was sent (mailparser files the List-* headers under one structured "list").
  const header = (mail: ParsedMail, name: string): string | null => mail.headerLines.find((h) => h.key === name)?.line.replace(/^[^:]+:\s*/, "") ?? null;

  const http = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method === "GET" && url.pathname === "/health") {
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
      return;
    }
    if (req.method === "GET" && url.pathname === "/messages") {
      const to = url.searchParams.get("to")?.toLowerCase();
      const messages = smtp.arrived
        .filter((a) => !to || a.to.some((t) => t.toLowerCase() === to))
        .map(({ to: recipients, mail }) => ({
          to: recipients,
          subject: mail.subject ?? null,
          text: mail.text ?? null,
          html: typeof mail.html === "string" ? mail.html : null,
          list_unsubscribe: header(mail, "list-unsubscribe"),
          list_unsubscribe_post: header(mail, "list-unsubscribe-post"),
          message_id: mail.messageId ?? null,
        }));
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(messages));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(httpPort, "127.0.0.1", () => resolve());
  });
  console.log(`mail-catcher: SMTP on 127.0.0.1:${smtpPort}, messages on http://127.0.0.1:${httpPort}/messages`);

  const stop = () => {
    http.close();
    void smtp.close().then(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main().catch((error: unknown) => {
  console.error("mail-catcher:", error);
  process.exit(1);
});
