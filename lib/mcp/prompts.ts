// The MCP prompt `weekly_pulse`: the last 7 days (today included, in the asked zone) against the 7
// before, told with the tools: the overview first, then where AI traffic came from, who passed whom,
// what was said and what the team noted. It names the tools and their arguments, so a model calls
// them as written rather than guessing a range.
import { addDays, todayIn } from "@/lib/range/calendar";
import { isTimeZoneName } from "@/lib/data-api/params";

export type PromptMessage = { role: "user"; content: { type: "text"; text: string } };

export const PROMPTS = [
  {
    name: "weekly_pulse",
    title: "Weekly pulse",
    description: "The last 7 days against the 7 before: traffic from AI assistants, conversions, platforms, who passed us, what was said, the team's notes.",
    arguments: [{ name: "tz", description: "IANA time zone the days are in (default UTC).", required: false }],
  },
] as const;

/** The prompt's messages for `now` in zone `tz` (an unknown zone reads as UTC), or undefined for no such prompt. */
export function promptMessages(
  name: string,
  args: Record<string, string> | undefined,
  now: number,
): { description: string; messages: PromptMessage[] } | undefined {
  if (name !== "weekly_pulse") return undefined;
  const tz = args?.tz && isTimeZoneName(args.tz) ? args.tz : "UTC";
  const to = todayIn(tz, now);
  const from = addDays(to, -6);
  const range = `from="${from}", to="${to}", tz="${tz}"`;
  const text = [
    `Give me this week's pulse of our workspace: ${from} to ${to} (${tz}), against the 7 days before (${addDays(from, -7)} to ${addDays(from, -1)}).`,
    `1. Call overview with ${range}: visitors, visitors from AI assistants, conversions and their changes.`,
    `2. Call platforms and sources with ${range}: which AI platforms and sources moved, and their conversions.`,
    `3. Call ranking_history and score_history with ${range}: did any competitor pass us, and how did our score move?`,
    `4. Call mentions with ${range.replace(', tz="' + tz + '"', "")}, sentiment="negative", limit=10, and questions with ${range}: what was said, and which questions we are never named first for.`,
    `5. Call notes with ${range}: what the team wrote down that may explain a change.`,
    "Answer in five short bullets, figures first, each change with its sign and per cent; say plainly when a change is small or the data is thin. Quote no more than two mentions.",
  ].join("\n");
  return { description: PROMPTS[0].description, messages: [{ role: "user", content: { type: "text", text } }] };
}
