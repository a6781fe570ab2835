// The weekly digest as an HTML e-mail (and Settings' preview of it): one self-contained document that
// mail clients render as written. Its figures are data tables (headers, a caption), laid out in
// tables of fixed width with every style inline, since many clients drop <style> and ignore flexbox
// and grid; light colours are inline, and a dark scheme is declared (color-scheme) with overrides in
// a `prefers-color-scheme: dark` block for the clients that read it. A client that reads neither
// keeps the light colours, readable on its own. It fits a phone's mail client (300 px and up): each
// change sits under its figure rather than in a column of its own, and narrow screens lose the
// margins. No script, image, font or stylesheet is fetched.
// Everything from people and from the Data API (notes, names, mentions, questions) is escaped.
import { formatDateRange, formatNumber, formatZone } from "@/lib/format/format";
import type { DigestFigures, Pair } from "./digest";
import { countsTest } from "@/lib/stats/exact-tests";

const esc = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** The light colours (inline) and their dark counterparts (the dark block), each pair readable at 4.5:1 or more. */
const LIGHT = {
  page: "#f3f5f7",
  card: "#ffffff",
  text: "#1f2933",
  muted: "#52606d",
  rule: "#d9dee3",
  up: "#17703a",
  down: "#b42318",
  button: "#1d5fbf",
  buttonText: "#ffffff",
};
const DARK = {
  page: "#0e1217",
  card: "#171d24",
  text: "#e7ebef",
  muted: "#a3afbb",
  rule: "#2e3843",
  up: "#6fd495",
  down: "#ff9b8f",
  button: "#79b0ff",
  buttonText: "#0b1726",
};

const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

/**
 * The change of a pair, in words and sign, with its class for the dark block: "+4.0%", "new", "no
 * change"; a change chance alone makes with counts this small is muted and says so.
 */
function change(pair: Pair): { text: string; tone: "up" | "down" | "flat" } {
  if (pair.before === 0) return pair.now === 0 ? { text: "no change", tone: "flat" } : { text: "new", tone: "up" };
  const pct = ((pair.now - pair.before) / pair.before) * 100;
  const rounded = Math.round(Math.abs(pct) * 10) / 10;
  if (rounded === 0) return { text: "0.0%", tone: "flat" };
  // A no-break space: the arrow never ends a line of its own in a narrow column.
  const text = pct > 0 ? `▲\u00a0+${rounded.toFixed(1)}%` : `▼\u00a0−${rounded.toFixed(1)}%`;
  if (countsTest(pair.now, pair.before)?.significant === false) return { text: `${text}, within normal variation`, tone: "flat" };
  return { text, tone: pct > 0 ? "up" : "down" };
}

const toneStyle = (tone: "up" | "down" | "flat") => (tone === "up" ? `color:${LIGHT.up};` : tone === "down" ? `color:${LIGHT.down};` : `color:${LIGHT.muted};`);
const toneClass = (tone: "up" | "down" | "flat") => (tone === "flat" ? "wa-muted" : `wa-${tone}`);

// Narrow paddings, and no cell kept from wrapping: the tables fit a phone's mail client (~300 px of text) without scrolling sideways.
const CELL = `padding:8px 4px;border-bottom:1px solid ${LIGHT.rule};font-size:14px;line-height:20px;`;
const HEAD = `${CELL}font-weight:600;color:${LIGHT.muted};font-size:12px;text-transform:none;`;

type Column = { label: string; numeric?: boolean };

/** A data table: a caption, column headers, a header cell per row. */
function table(caption: string, columns: Column[], rows: string[][]): string {
  const align = (c: Column | undefined) => (c?.numeric ? "right" : "left");
  const head = columns
    .map((c) => `<th scope="col" align="${align(c)}" class="wa-muted wa-rule" style="${HEAD}text-align:${align(c)};">${esc(c.label)}</th>`)
    .join("");
  const body = rows
    .map(
      (cells) =>
        `<tr>${cells
          .map((cell, i) =>
            i === 0
              ? `<th scope="row" align="left" class="wa-text wa-rule" style="${CELL}text-align:left;font-weight:600;">${cell}</th>`
              : `<td align="${align(columns[i])}" class="wa-text wa-rule" style="${CELL}text-align:${align(columns[i])};">${cell}</td>`,
          )
          .join("")}</tr>`,
    )
    .join("");
  return `<table width="100%" cellpadding="0" cellspacing="0" border="0" style="border-collapse:collapse;margin:0 0 24px;">
<caption class="wa-text" style="text-align:left;font-size:16px;line-height:22px;font-weight:600;padding:0 0 8px;color:${LIGHT.text};">${esc(caption)}</caption>
<thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

/** A figure with its change against the pair's `before` on a line under it, smaller. */
const withChange = (figure: string, pair: Pair) => {
  const c = change(pair);
  return `${esc(figure)}<br><span class="${toneClass(c.tone)}" style="${toneStyle(c.tone)}font-size:12px;">${esc(c.text)}</span>`;
};

/** A figure's name, linked to the page that shows it when there is one (underlined: not told by colour alone). */
const figureLink = (label: string, url: string | undefined) =>
  url ? `<a href="${esc(url)}" class="wa-text" style="color:${LIGHT.text};text-decoration:underline;">${esc(label)}</a>` : esc(label);

/** A line linking to a page, under the section it belongs to. */
const pageLink = (url: string, label: string) =>
  `<p style="margin:-16px 0 24px;font-size:13px;line-height:18px;"><a href="${esc(url)}" class="wa-link" style="color:${LIGHT.button};text-decoration:underline;">${esc(label)}</a></p>`;

/** A section of sentences (negative mentions, notes): a heading and a list. */
function list(title: string, items: string[]): string {
  return `<h2 class="wa-text" style="margin:0 0 8px;font-size:16px;line-height:22px;font-weight:600;color:${LIGHT.text};">${esc(title)}</h2>
<ul style="margin:0 0 24px;padding:0 0 0 20px;">${items.map((i) => `<li class="wa-text" style="margin:0 0 6px;font-size:14px;line-height:20px;color:${LIGHT.text};">${i}</li>`).join("")}</ul>`;
}

const unavailable = (what: string, why: string) =>
  `<p class="wa-muted" style="margin:0 0 24px;font-size:14px;line-height:20px;color:${LIGHT.muted};">${esc(what)} could not be read this time (${esc(why)}).</p>`;

/** The digest as a self-contained HTML e-mail (`footer`: HTML put last, e.g. how to unsubscribe). */
export function digestHtml(d: DigestFigures, subject: string, footer?: string): string {
  const week = formatDateRange(d.week);
  const before = formatDateRange(d.previous);
  const parts: string[] = [];

  if (d.totals.ok) {
    const { visitors, aiVisitors, conversions } = d.totals.value;
    // Each change under this week's figure, beside the one it is compared with (a column of its own would not fit a phone).
    const row = (label: string, pair: Pair, url: string | undefined) => [
      figureLink(label, url),
      withChange(formatNumber(pair.now), pair),
      esc(formatNumber(pair.before)),
    ];
    parts.push(
      table(
        "The week",
        [{ label: "" }, { label: "This week", numeric: true }, { label: "Week before", numeric: true }],
        [
          row("Visitors", visitors, d.links?.visitors),
          row("From AI platforms", aiVisitors, d.links?.aiVisitors),
          row("Conversions", conversions, d.links?.conversions),
        ],
      ),
    );
  } else parts.push(unavailable("The week's visitors", d.totals.unavailable));

  if (d.score || d.rank) {
    const rows: string[][] = [];
    if (d.score) {
      const c = d.score.change;
      const tone = c === null || Math.abs(c) < 0.05 ? "flat" : c > 0 ? "up" : "down";
      const text = c === null ? "no reading a week before" : `${c >= 0 ? "+" : "−"}${Math.abs(c).toFixed(1)} points on the week`;
      rows.push([
        figureLink("AI Positioning Score", d.links?.score),
        esc(d.score.now.toFixed(1)),
        `<span class="${toneClass(tone)}" style="${toneStyle(tone)}">${esc(text)}</span>`,
      ]);
    }
    if (d.rank) {
      const moved = d.rank.was !== null && d.rank.was !== d.rank.now;
      const tone = !moved ? "flat" : d.rank.now < d.rank.was! ? "up" : "down";
      rows.push([
        figureLink("Rank", d.links?.rank),
        esc(`${d.rank.now}\u00a0of\u00a0${d.rank.of}`),
        `<span class="${toneClass(tone)}" style="${toneStyle(tone)}">${esc(moved ? `was ${d.rank.was}` : d.rank.was === null ? "no ranking a week before" : "unchanged")}</span>`,
      ]);
    }
    parts.push(table("Score and rank", [{ label: "" }, { label: "Now", numeric: true }, { label: "Against a week before", numeric: true }], rows));
  }

  if (d.platforms.ok) {
    parts.push(
      table(
        "From mention to conversion, per platform",
        // The mentions' change under their count, as in the week's table.
        [{ label: "Platform" }, { label: "Mentions", numeric: true }, { label: "AI visitors", numeric: true }, { label: "Conversions", numeric: true }],
        d.platforms.value.map((p) => [
          esc(p.name),
          withChange(formatNumber(p.mentions.now), p.mentions),
          esc(formatNumber(p.visitors)),
          esc(formatNumber(p.conversions)),
        ]),
      ),
    );
    if (d.links?.platforms) parts.push(pageLink(d.links.platforms, "The AI platforms of the week in the dashboard"));
  } else parts.push(unavailable("The AI platforms", d.platforms.unavailable));

  if (!d.negativeMentions.ok) parts.push(unavailable("Negative mentions", d.negativeMentions.unavailable));
  else
    parts.push(
      list(
        "Negative mentions",
        d.negativeMentions.value.length === 0
          ? ["None this week."]
          : d.negativeMentions.value.map(
              (m) =>
                `<strong>${esc(m.platform)}</strong>, asked “${esc(m.query)}”: <span class="wa-muted" style="color:${LIGHT.muted};">“${esc(m.snippet)}”</span>`,
            ),
      ),
    );

  if (d.notes.length > 0)
    parts.push(
      list(
        "Notes of the week",
        d.notes.map(
          (n) =>
            `<strong>${esc(n.endDate && n.endDate !== n.date ? formatDateRange({ from: n.date, to: n.endDate }) : formatDateRange({ from: n.date, to: n.date }))}</strong>: ${esc(n.text)}`,
        ),
      ),
    );

  if (d.notes.length > 0 && d.links?.notes) parts.push(pageLink(d.links.notes, "The notes on the dashboard's chart"));
  if (d.url) parts.push(mailButton(d.url, "Open the week in the dashboard"));
  if (footer) parts.push(footer);

  return mailDocument({
    subject,
    kicker: "Weekly digest · Workspace Analytics",
    title: week,
    lead: `Monday to Sunday in ${esc(formatZone(d.tz))}, against the week before (${esc(before)}). A grey change is within normal variation: chance alone makes it with counts this small.`,
    body: parts.join("\n"),
  });
}

/** A link drawn as a button (a table cell, as mail clients draw it), to `url`. */
export function mailButton(url: string, label: string): string {
  return (
    `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 8px;"><tr><td class="wa-button" style="background:${LIGHT.button};border-radius:6px;">` +
    `<a href="${esc(url)}" class="wa-button" style="display:inline-block;padding:10px 18px;font-family:${FONT};font-size:14px;font-weight:600;line-height:20px;color:${LIGHT.buttonText};text-decoration:none;">${esc(label)}</a></td></tr></table>`
  );
}

/** A paragraph of the message (`html` already escaped); `muted` for the small print. */
export function mailParagraph(html: string, muted = false): string {
  return muted
    ? `<p class="wa-muted" style="margin:16px 0 0;font-size:12px;line-height:18px;color:${LIGHT.muted};">${html}</p>`
    : `<p class="wa-text" style="margin:0 0 16px;font-size:14px;line-height:20px;color:${LIGHT.text};">${html}</p>`;
}

/** `text` escaped for HTML. */
export const escapeHtml = esc;

/**
 * One self-contained e-mail document (see the top of this file): `kicker` above the title, `lead`
 * and `body` HTML already escaped.
 */
export function mailDocument({ subject, kicker, title, lead, body }: { subject: string; kicker: string; title: string; lead: string; body: string }): string {
  // Narrow screens (the clients that read media queries): the page's margins give their room to the figures.
  const narrow = `@media (max-width: 420px) {
  .wa-outer { padding:8px 0 !important; }
  .wa-inner { padding:16px 12px !important; }
}`;
  const dark = `@media (prefers-color-scheme: dark) {
  .wa-page { background:${DARK.page} !important; }
  .wa-card { background:${DARK.card} !important; }
  .wa-text { color:${DARK.text} !important; }
  .wa-muted { color:${DARK.muted} !important; }
  .wa-rule { border-color:${DARK.rule} !important; }
  .wa-up { color:${DARK.up} !important; }
  .wa-down { color:${DARK.down} !important; }
  td.wa-button { background:${DARK.button} !important; }
  a.wa-button { color:${DARK.buttonText} !important; }
  a.wa-link { color:${DARK.button} !important; }
}`;

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="supported-color-schemes" content="light dark">
<base target="_blank">
<title>${esc(subject)}</title>
<style>
:root { color-scheme: light dark; }
${narrow}
${dark}
</style>
</head>
<body class="wa-page" style="margin:0;padding:0;background:${LIGHT.page};">
<div style="display:none;max-height:0;overflow:hidden;">${esc(subject)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" class="wa-page" style="background:${LIGHT.page};">
<tr><td align="center" class="wa-outer" style="padding:16px 8px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" class="wa-card" style="max-width:600px;background:${LIGHT.card};border-radius:8px;">
<tr><td class="wa-text wa-inner" style="padding:20px 16px;font-family:${FONT};color:${LIGHT.text};">
<p class="wa-muted" style="margin:0;font-size:13px;line-height:18px;color:${LIGHT.muted};">${esc(kicker)}</p>
<h1 class="wa-text" style="margin:4px 0 4px;font-size:22px;line-height:28px;font-weight:700;color:${LIGHT.text};">${esc(title)}</h1>
<p class="wa-muted" style="margin:0 0 24px;font-size:14px;line-height:20px;color:${LIGHT.muted};">${lead}</p>
${body}
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}
