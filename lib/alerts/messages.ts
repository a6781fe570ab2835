// What alerts say, as bodies: the event's JSON (what a signed webhook receives, byte for byte) and the
// Slack message made from it. The event body is the contract receivers code against:
// `{type, timestamp, data: {rule?, value?, previous?, message, url?, ...}}`. Links point into the
// dashboard only when PUBLIC_URL is set (otherwise there is no address to point at, and none is made
// up). Slack reads `text` and every mrkdwn block as markup: `<!channel>`, `<@U…>` and
// `<https://…|label>` notify people and make links that say anything. Text from people and from the
// upstream (a note, a competitor's or a platform's name, a mention) reaches Slack only with `&`, `<`
// and `>` escaped, as Slack asks, and on one line (a line break in a name cannot start a line of its
// own that looks like the message's), in blocks marked verbatim (no automatic mentions or links).

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
    /** The digest's sections, as lines, each with the pages that show its figures (digest.weekly). */
    sections?: { title: string; lines: string[]; links?: { label: string; url: string }[] }[];
  };
};

/** An address into the dashboard: `publicUrl` + page + its query, or undefined without PUBLIC_URL. */
export function dashboardLink(publicUrl: string | undefined, path: string, query: Record<string, string> = {}): string | undefined {
  if (!publicUrl) return undefined;
  const search = new URLSearchParams(query).toString();
  return `${publicUrl}${path}${search ? `?${search}` : ""}`;
}

/** `text` on one line: line breaks and other control characters become spaces. */
export const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f\u0085\u2028\u2029]+/g, " ");

/** The notes of some days, in one sentence ("" when none). */
export function notesSentence(notes: { date: string; endDate: string | null; text: string }[]): string {
  if (notes.length === 0) return "";
  const shown = notes.slice(0, 5).map((n) => `“${oneLine(n.text)}” (${n.endDate && n.endDate !== n.date ? `${n.date} to ${n.endDate}` : n.date})`);
  const more = notes.length > shown.length ? `, and ${notes.length - shown.length} more` : "";
  return ` Notes of those days: ${shown.join(", ")}${more}.`;
}

/** Text for Slack's markup, from anyone: one line, `&` `<` `>` escaped. */
export const slackText = (text: string) => oneLine(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * `text` (already escaped) cut to at most `max` characters with "…", never inside an escape
 * (`&am`) or a surrogate pair: Slack refuses a block over its limit, and a half escape shows as junk.
 */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max - 1);
  const amp = cut.lastIndexOf("&");
  if (amp >= 0 && !cut.slice(amp).includes(";")) cut = cut.slice(0, amp);
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}

const HEADINGS: Record<EventType, string> = {
  "alert.firing": "Alert",
  "alert.resolved": "Resolved",
  "digest.weekly": "Weekly digest",
  test: "Test message",
};

/** Slack's limits: a section's text, the message's `text`, blocks per message. */
const SECTION_MAX = 3000;
const TEXT_MAX = 4000;
const BLOCKS_MAX = 50;

/** A mrkdwn text object Slack does not scan for names and addresses of its own accord. */
const mrkdwn = (text: string) => ({ type: "mrkdwn", text, verbatim: true });

/** Room kept for the last line of a section cut short ("• … and 12 more"). */
const MORE_ROOM = 30;

/** A digest section: its title and a bullet per line, as many whole lines as fit, then how many did not. */
function sectionText(title: string, lines: string[]): string {
  let text = `*${slackText(title)}*`;
  for (let i = 0; i < lines.length; i++) {
    const line = `\n• ${slackText(lines[i]!)}`;
    const last = i === lines.length - 1;
    if (text.length + line.length + (last ? 0 : MORE_ROOM) <= SECTION_MAX) text += line;
    // A first line too long on its own is shown cut rather than not at all.
    else if (i === 0) text += clip(line, SECTION_MAX - text.length - MORE_ROOM);
    else return `${text}\n• … and ${lines.length - i} more`;
  }
  return text;
}

/** Slack's incoming-webhook body for an event: a plain `text` (notifications, screen readers) and blocks. */
export function slackBody(event: EventBody): { text: string; blocks: unknown[] } {
  const heading = HEADINGS[event.type] ?? "Workspace Analytics";
  const message = slackText(event.data.message);
  const blocks: unknown[] = [
    { type: "header", text: { type: "plain_text", text: `${heading} · Workspace Analytics`.slice(0, 150), emoji: false } },
    { type: "section", text: mrkdwn(clip(message, SECTION_MAX)) },
  ];
  for (const section of event.data.sections ?? []) {
    if (section.lines.length === 0) continue;
    blocks.push({ type: "section", text: mrkdwn(sectionText(section.title, section.lines)) });
    // One button per figure, to its page (Slack allows 25 elements in an actions block).
    const links = (section.links ?? []).slice(0, 25);
    if (links.length > 0)
      blocks.push({
        type: "actions",
        elements: links.map((l) => ({ type: "button", text: { type: "plain_text", text: oneLine(l.label).slice(0, 75) }, url: l.url })),
      });
  }
  if (event.data.url) {
    blocks.push({ type: "actions", elements: [{ type: "button", text: { type: "plain_text", text: "Open in the dashboard" }, url: event.data.url }] });
  }
  blocks.push({ type: "context", elements: [mrkdwn(slackText(`${event.type} · ${event.timestamp}`))] });
  const link = event.data.url ? ` ${slackText(event.data.url)}` : "";
  return { text: `${heading}: ${clip(message, TEXT_MAX - heading.length - 2 - link.length)}${link}`, blocks: blocks.slice(0, BLOCKS_MAX) };
}

/**
 * An event as plain text, what its receivers read in it: the heading, the message, each section's
 * lines, and the link into the dashboard. Settings' preview of the digest shows it as such.
 */
export function eventText(event: EventBody): string {
  const parts = [`${HEADINGS[event.type] ?? "Workspace Analytics"} · Workspace Analytics`, event.data.message];
  for (const section of event.data.sections ?? []) {
    if (section.lines.length > 0)
      parts.push(
        [section.title, ...section.lines.map((line) => `• ${oneLine(line)}`), ...(section.links ?? []).map((l) => `  ${oneLine(l.label)}: ${l.url}`)].join(
          "\n",
        ),
      );
  }
  if (event.data.url) parts.push(`Open in the dashboard: ${event.data.url}`);
  return parts.join("\n\n");
}

/** The bytes a destination receives for `event`. */
export function bodyFor(kind: "slack" | "webhook", event: EventBody): string {
  return JSON.stringify(kind === "slack" ? slackBody(event) : event);
}
