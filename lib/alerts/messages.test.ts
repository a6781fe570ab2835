// What Slack receives when people and the upstream write hostile text: a note that pings the channel
// and forges a link, competitor and platform names with line breaks and mentions. Nothing Slack would
// read as a mention or a link survives in `text` or in any block, every name stays on its line, and
// long digests are cut between lines within Slack's limits, never inside an escape.
import { describe, expect, it } from "vitest";
import { eventText, notesSentence, slackBody, type EventBody } from "./messages";

const HOSTILE_NOTE = "<!channel> <https://evil.example/login|Re-authenticate> now";
const HOSTILE_COMPETITOR = "Acme\n• <@U012AB3CD> says: <!here> click <https://evil.example|here> & win";

/** Every string of Slack's body that Slack reads as markup: `text` and each block's text, at any depth. */
function slackStrings(value: unknown, key = ""): string[] {
  if (typeof value === "string") return key === "text" ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((v) => slackStrings(v, key));
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => slackStrings(v, k === "type" || k === "url" ? "" : k));
  return [];
}

/** The `<…>` sequences Slack would act on: mentions (`<!…>`, `<@…>`, `<#…>`) and links (`<http…>`, `<mailto:…>`). */
const CONTROL_SEQUENCE = /<[!@#]|<(?:https?|mailto):/i;

const firing: EventBody = {
  type: "alert.firing",
  timestamp: "2026-11-20T12:00:00.000Z",
  data: {
    message: `${HOSTILE_COMPETITOR} (3rd, score 71.0) passed us in the ranking.${notesSentence([{ date: "2026-11-19", endDate: null, text: HOSTILE_NOTE }])}`,
    url: "https://dashboard.example.com/intelligence?from=2026-11-13&to=2026-11-20&tz=UTC",
  },
};

describe("Slack bodies", () => {
  it("a hostile note and competitor name ping nobody and link nowhere, in text and in every block", () => {
    const body = slackBody(firing);
    const strings = slackStrings(body);
    expect(strings.length).toBeGreaterThanOrEqual(4);
    for (const text of strings) {
      expect(text, text).not.toMatch(CONTROL_SEQUENCE);
      expect(text, text).not.toMatch(/[<>]/);
      // Every & is the start of an escape Slack reads back as a character.
      expect(text.replace(/&(amp|lt|gt);/g, ""), text).not.toContain("&");
    }
    // What people wrote is still there to read, escaped as Slack asks.
    expect(body.text).toContain("&lt;!channel&gt; &lt;https://evil.example/login|Re-authenticate&gt; now");
    expect(body.text).toContain("&lt;@U012AB3CD&gt; says: &lt;!here&gt;");
    expect(body.text).toContain(" &amp; win");
    // The dashboard's own link stays usable (its & escaped, which Slack reads back).
    expect(body.text.endsWith(" https://dashboard.example.com/intelligence?from=2026-11-13&amp;to=2026-11-20&amp;tz=UTC")).toBe(true);
    expect(body.blocks).toContainEqual({ type: "actions", elements: [expect.objectContaining({ url: firing.data.url })] });
  });

  it("a line break in a name cannot start a line of its own: the message and each digest line stay one line", () => {
    const body = slackBody(firing);
    expect(body.text).not.toMatch(/[\r\n\u2028\u2029]/);
    expect(body.text).toContain("Acme • &lt;@U012AB3CD&gt;");
    const digest = slackBody({
      type: "digest.weekly",
      timestamp: "2026-11-23T09:00:00.000Z",
      data: {
        message: "The week of 2026-11-16 to 2026-11-22.",
        sections: [
          {
            title: "From mention to conversion, per platform",
            lines: ["chatgpt\r\n*Fake heading*\u2028• forged bullet: 3 mentions", "perplexity: 2 mentions"],
          },
          { title: "Notes of the week", lines: [`2026-11-19: ${HOSTILE_NOTE}\n> quoted`] },
        ],
      },
    });
    const sections = digest.blocks.filter(
      (b): b is { type: "section"; text: { text: string; verbatim: boolean } } => (b as { type: string }).type === "section",
    );
    expect(sections.map((s) => s.text.verbatim)).toEqual([true, true, true]);
    expect(sections[1]!.text.text.split("\n")).toEqual([
      "*From mention to conversion, per platform*",
      "• chatgpt *Fake heading* • forged bullet: 3 mentions",
      "• perplexity: 2 mentions",
    ]);
    expect(sections[2]!.text.text.split("\n")).toEqual([
      "*Notes of the week*",
      "• 2026-11-19: &lt;!channel&gt; &lt;https://evil.example/login|Re-authenticate&gt; now &gt; quoted",
    ]);
  });

  it("the digest's figures each have a button to their page in Slack, and a line with the address in the text", () => {
    const event = {
      type: "digest.weekly" as const,
      timestamp: "2026-11-23T09:00:00.000Z",
      data: {
        message: "The week of 2026-11-16 to 2026-11-22.",
        sections: [
          {
            title: "The week against the week before",
            lines: ["Visitors: 1,045 against 835 (+25.1%)", "From AI platforms: 21 against 19 (+10.5%, within normal variation)"],
            links: [
              { label: "Visitors", url: "https://dash.example.com/?from=2026-11-16" },
              { label: "From AI platforms", url: "https://dash.example.com/platforms?from=2026-11-16" },
            ],
          },
        ],
      },
    };
    const body = slackBody(event);
    expect(body.blocks[3]).toEqual({
      type: "actions",
      elements: [
        { type: "button", text: { type: "plain_text", text: "Visitors" }, url: "https://dash.example.com/?from=2026-11-16" },
        { type: "button", text: { type: "plain_text", text: "From AI platforms" }, url: "https://dash.example.com/platforms?from=2026-11-16" },
      ],
    });
    expect(eventText(event)).toContain(
      "• From AI platforms: 21 against 19 (+10.5%, within normal variation)\n  Visitors: https://dash.example.com/?from=2026-11-16\n  From AI platforms: https://dash.example.com/platforms?from=2026-11-16",
    );
  });

  it("a long digest section keeps Slack's 3,000 characters by whole lines and says how many were left out; a long message is cut outside any escape", () => {
    const lines = Array.from({ length: 200 }, (_, i) => `line ${i} ${"<&>".repeat(10)}`);
    const digest = slackBody({
      type: "digest.weekly",
      timestamp: "2026-11-23T09:00:00.000Z",
      data: { message: "&".repeat(5000), sections: [{ title: "Negative mentions", lines }] },
    });
    const [, message, section] = digest.blocks as { text: { text: string } }[];
    expect(section!.text.text.length).toBeLessThanOrEqual(3000);
    const shown = section!.text.text.split("\n");
    const kept = shown.length - 2;
    expect(shown.slice(1, -1)).toEqual(lines.slice(0, kept).map((l) => `• ${l.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")}`));
    expect(shown.at(-1)).toBe(`• … and ${200 - kept} more`);
    expect(message!.text.text.length).toBeLessThanOrEqual(3000);
    expect(message!.text.text).toMatch(/^(&amp;)+…$/);
    expect(digest.text.length).toBeLessThanOrEqual(4000);
    expect(digest.text).toMatch(/^Weekly digest: (&amp;)+…$/);
  });
});
