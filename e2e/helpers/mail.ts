// What the dashboard e-mailed during the run, read from the mail catcher Playwright starts beside it
// (testing/mail-catcher.ts; the dashboard's SMTP_URL points at its SMTP port).
import { expect } from "@playwright/test";

const smtpPort = Number(process.env.E2E_SMTP_PORT ?? Number(process.env.E2E_SANDBOX_PORT ?? 4117) + 10);
export const MAIL_CATCHER_URL = `http://127.0.0.1:${smtpPort + 1}`;

export type CaughtMail = {
  to: string[];
  subject: string | null;
  text: string | null;
  html: string | null;
  /** The header's value: `<https://…/mail/unsubscribe/{token}>`. */
  list_unsubscribe: string | null;
  list_unsubscribe_post: string | null;
  message_id: string | null;
};

/** The messages to `address`, oldest first, once there are at least `count` (waited for up to 15 s). */
export async function mailsTo(address: string, count: number): Promise<CaughtMail[]> {
  let mails: CaughtMail[] = [];
  await expect
    .poll(
      async () => {
        const res = await fetch(`${MAIL_CATCHER_URL}/messages?to=${encodeURIComponent(address)}`);
        mails = (await res.json()) as CaughtMail[];
        return mails.length;
      },
      { timeout: 15_000, message: `${count} e-mails to ${address}` },
    )
    .toBeGreaterThanOrEqual(count);
  return mails;
}

/** The first link in `text` on `path` (`/mail/confirm/`…), as an absolute URL. */
export function linkIn(text: string | null, path: string): string {
  const found = new RegExp(`https?://\\S+${path.replace(/\//g, "\\/")}[A-Za-z0-9_-]+`).exec(text ?? "")?.[0];
  if (!found) throw new Error(`no ${path} link in: ${text}`);
  return found;
}
