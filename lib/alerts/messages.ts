// What alerts say, as bodies: the event's JSON (what a signed webhook receives, byte for byte) and the
// Slack message made from it. The event body is the contract receivers code against:
// `{type, timestamp, data: {rule?, value?, previous?, message, url?, ...}}`. Links point into the
// dashboard only when PUBLIC_URL is set (otherwise there is no address to point at, and none is made
// up). Slack's mrkdwn treats `&`, `<` and `>` as markup, so text from users and the upstream (a
// competitor's name, a note) is escaped before it goes in.

export type EventType = "alert.firing" | "alert.resolved" | "digest.weekly" | "test";

export type EventBody = {
  type: EventType;
  /** When the event was made (ISO). */
  timestamp: string;
  data: {
    rule?: { id: string; kind: string; threshold: number | null };
    value?: number | null;
    previous?: number | null;
    message: string;
    url?: string;
    /** The digest's sections, as lines (digest.weekly). */
    sections?: { title: string; lines: string[] }[];
  };
};

/** An address into the dashboard: `publicUrl` + page + its query, or undefined without PUBLIC_URL. */
export function dashboardLink(publicUrl: string | undefined, path: string, query: Record<string, string> = {}): string | undefined {
  if (!publicUrl) return undefined;
  const search = new URLSearchParams(query).toString();
  return `${publicUrl}${path}${search ? `?${search}` : ""}`;
}

/** The notes of some days, in one sentence ("" when none). */
export function notesSentence(notes: { date: string; endDate: string | null; text: string }[]): string {
  if (notes.length === 0) return "";
  const shown = notes.slice(0, 5).map((n) => `“${n.text}” (${n.endDate && n.endDate !== n.date ? `${n.date} to ${n.endDate}` : n.date})`);
  const more = notes.length > shown.length ? `, and ${notes.length - shown.length} more` : "";
  return ` Notes of those days: ${shown.join(", ")}${more}.`;
}

const escapeMrkdwn = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const HEADINGS: Record<EventType, string> = {
  "alert.firing": "Alert",
  "alert.resolved": "Resolved",
  "digest.weekly": "Weekly digest",
  test: "Test message",
};

/** Slack's incoming-webhook body for an event: a plain `text` (notifications, screen readers) and blocks. */
export function slackBody(event: EventBody): { text: string; blocks: unknown[] } {
  const heading = HEADINGS[event.type] ?? "Workspace Analytics";
  const blocks: unknown[] = [
    { type: "header", text: { type: "plain_text", text: `${heading} · Workspace Analytics`.slice(0, 150), emoji: false } },
    { type: "section", text: { type: "mrkdwn", text: escapeMrkdwn(event.data.message).slice(0, 3000) } },
  ];
  for (const section of event.data.sections ?? []) {
    if (section.lines.length === 0) continue;
    blocks.push({ type: "section", text: { type: "mrkdwn", text: `*${escapeMrkdwn(section.title)}*\n${section.lines.map((l) => `• ${escapeMrkdwn(l)}`).join("\n")}`.slice(0, 3000) } });
  }
  if (event.data.url) {
    blocks.push({ type: "actions", elements: [{ type: "button", text: { type: "plain_text", text: "Open in the dashboard" }, url: event.data.url }] });
  }
  blocks.push({ type: "context", elements: [{ type: "mrkdwn", text: `${event.type} · ${event.timestamp}` }] });
  const text = `${heading}: ${event.data.message}${event.data.url ? ` ${event.data.url}` : ""}`;
  return { text: text.slice(0, 4000), blocks: blocks.slice(0, 50) };
}

/** The bytes a destination receives for `event`. */
export function bodyFor(kind: "slack" | "webhook", event: EventBody): string {
  return JSON.stringify(kind === "slack" ? slackBody(event) : event);
}
