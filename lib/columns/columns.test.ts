// The CSV headers every export and card download writes, pinned byte for byte: the columns moved to
// one declaration per resource, and the files people and scripts already read must not change.
import { describe, expect, it } from "vitest";
import { csvHeaderRow, excelStyle, toCsv, UTF8_BOM } from "@/lib/csv";
import { FUNNEL_COLUMNS, OVERVIEW_COLUMNS, TRAFFIC_COLUMNS } from "./analytics";
import { columnOf, type Column } from "./column";
import { RANK_HISTORY_COLUMNS, SCORE_HISTORY_COLUMNS } from "./history";
import { MENTION_COLUMNS } from "./mentions";
import { RANKING_COLUMNS } from "./ranking";
import { TIMELINE_COLUMNS } from "./timeline";
import { VISITOR_COLUMNS } from "./visitors";

const line = (names: string[]) => names.map((n) => `"${n}"`).join(",") + "\r\n";

const expected: Array<[string, readonly Column[], string[], string[]]> = [
  [
    "visitors",
    VISITOR_COLUMNS,
    ["id", "first_seen", "last_seen", "source", "intent", "pages_viewed", "converted", "email", "country", "city"],
    ["Visitor ID", "First seen (UTC)", "Last seen (UTC)", "Source", "Intent", "Pages viewed", "Converted", "Email", "Country", "City"],
  ],
  [
    "mentions",
    MENTION_COLUMNS,
    ["id", "created_at", "platform", "sentiment", "position", "query", "response_snippet", "competitors_mentioned"],
    ["Mention ID", "Mentioned at (UTC)", "AI platform", "Sentiment", "Position in answer", "Query", "Answer excerpt", "Competitors mentioned"],
  ],
  [
    "overview",
    OVERVIEW_COLUMNS,
    ["metric", "total", "change_vs_previous_period_pct", "rate_or_share_pct"],
    ["Metric", "Total", "Change vs previous period (%)", "Conversion rate or share of visitors (%)"],
  ],
  [
    "traffic",
    TRAFFIC_COLUMNS,
    ["source", "group", "visitors", "share_of_visitors_pct", "change_vs_previous_period_pct"],
    ["Source", "Group", "Visitors", "Share of visitors (%)", "Change vs previous period (%)"],
  ],
  [
    "funnel",
    FUNNEL_COLUMNS,
    ["stage", "label", "count", "conversion_from_previous_stage_pct", "conversion_from_first_stage_pct"],
    ["Stage", "Stage name", "Visitors", "Conversion from previous stage (%)", "Conversion from first stage (%)"],
  ],
  [
    "score history",
    SCORE_HISTORY_COLUMNS,
    ["updated_at", "score", "visibility", "sentiment", "authority", "coverage", "direction", "change"],
    ["Score of (UTC)", "AI Positioning Score", "Visibility", "Sentiment", "Authority", "Coverage", "30-day trend", "30-day change (points)"],
  ],
  [
    "rank history",
    RANK_HISTORY_COLUMNS,
    ["updated_at", "rank", "name", "score", "is_workspace"],
    ["Ranking of (UTC)", "Rank", "Name", "AI Positioning Score", "This workspace"],
  ],
  ["ranking", RANKING_COLUMNS, ["rank", "name", "score", "change", "is_workspace"], ["Rank", "Name", "AI Positioning Score", "Score change", "This workspace"]],
  [
    "timeline",
    TIMELINE_COLUMNS,
    ["occurred_at", "type", "title", "url", "source", "duration_seconds"],
    ["Time (UTC)", "Event", "Page title", "URL", "Source", "Time on page (s)"],
  ],
];

describe("CSV headers from the column declarations", () => {
  it.each(expected)("%s: plain CSV machine names and CSV-for-Excel labels, unchanged", (_name, columns, plain, excel) => {
    expect(csvHeaderRow(columns)).toBe(line(plain));
    expect(csvHeaderRow(columns, excelStyle())).toBe(UTF8_BOM + line(excel));
  });

  it("writes a visitor row's cells by kind: a date-time, labels and Yes/No for Excel, the API's values in plain CSV", () => {
    const row = {
      id: "vis_1",
      first_seen: "2026-11-20T12:34:56.000Z",
      source: "perplexity",
      intent: "problem_research",
      converted: true,
      pages_viewed: 3,
      city: "São Paulo",
    };
    expect(toCsv(VISITOR_COLUMNS, [row]).split("\r\n")[1]).toBe(
      '"vis_1","2026-11-20T12:34:56.000Z","","perplexity","problem_research","3","true","","","São Paulo"',
    );
    expect(toCsv(VISITOR_COLUMNS, [row], excelStyle()).split("\r\n")[1]).toBe(
      '"vis_1","2026-11-20 12:34:56","","Perplexity","Problem research","3","Yes","","","São Paulo"',
    );
  });

  it("labels each token column for Excel with the function its screen uses; unknown values stay as sent", () => {
    const excel = (columns: readonly Column[], row: Record<string, unknown>) => toCsv(columns, [row], excelStyle()).split("\r\n")[1];
    expect(excel(MENTION_COLUMNS, { id: "men_1", platform: "chatgpt", sentiment: "negative" })).toBe('"men_1","","ChatGPT","Negative","","","",""');
    expect(excel(TIMELINE_COLUMNS, { type: "form_submit", source: "organic" })).toBe('"","Form submitted","","","Organic search",""');
    expect(excel(TRAFFIC_COLUMNS, { source: "gemini", group: "ai", visitors: 5 })).toBe('"Gemini","AI platforms","5","",""');
    expect(excel(OVERVIEW_COLUMNS, { metric: "ai_traffic", total: 7 })).toBe('"AI traffic","7","",""');
    expect(excel(VISITOR_COLUMNS, { id: "vis_2", source: "myspace", intent: "=webinar" })).toBe('"vis_2","","","myspace","\'=webinar","","","","",""');
  });

  it("keys are unique within each resource, and a lookup by key finds its column", () => {
    for (const [, columns] of expected) expect(new Set(columns.map((c) => c.key)).size).toBe(columns.length);
    expect(columnOf(VISITOR_COLUMNS, "pages_viewed")).toMatchObject({ label: "Pages viewed", kind: "integer" });
    expect(() => columnOf(VISITOR_COLUMNS as readonly Column[], "nope")).toThrow(/No column "nope"/);
  });
});
