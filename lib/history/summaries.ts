// What the MCP tools `score_history` and `ranking_history` say in a sentence (their structured content
// is the route's JSON): the score's first and last value in the range, and where the brand stood at
// the first and last snapshot, naming who passed it and whom it passed. Plain functions of the
// routes' JSON, so a model's summary never says more than the answer holds.

type ScoreJson = { from: string; to: string; data: { at: string; score: number }[] };
type RankingJson = { from: string; to: string; data: { at: string; entries: { rank: number; name: string; is_workspace: boolean }[] }[] };

export function scoreHistorySummary(answer: ScoreJson): string {
  const first = answer.data[0];
  const last = answer.data.at(-1);
  if (!first || !last) return `No score was recorded from ${answer.from} to ${answer.to}.`;
  const change = last.score - first.score;
  return `Score ${last.score} on ${last.at.slice(0, 10)} (${change > 0 ? "+" : ""}${change} since ${first.score} on ${first.at.slice(0, 10)}; ${answer.data.length} snapshots from ${answer.from} to ${answer.to}).`;
}

export function rankingHistorySummary(answer: RankingJson): string {
  const first = answer.data[0];
  const last = answer.data.at(-1);
  if (!first || !last) return `No ranking was recorded from ${answer.from} to ${answer.to}.`;
  const ours = (entries: RankingJson["data"][number]["entries"]) => entries.find((e) => e.is_workspace);
  const [before, now] = [ours(first.entries), ours(last.entries)];
  if (!before || !now) return `${answer.data.length} rankings from ${answer.from} to ${answer.to}; the brand is not in every one.`;
  const rankOf = (entries: RankingJson["data"][number]["entries"], name: string) => entries.find((e) => e.name === name)?.rank;
  const others = last.entries.filter((e) => !e.is_workspace);
  const passedUs = others.filter((e) => e.rank < now.rank && (rankOf(first.entries, e.name) ?? Infinity) > before.rank).map((e) => e.name);
  const wePassed = others.filter((e) => e.rank > now.rank && (rankOf(first.entries, e.name) ?? -Infinity) < before.rank).map((e) => e.name);
  return (
    `${now.name} ranked ${now.rank} of ${last.entries.length} on ${last.at.slice(0, 10)} (${before.rank} on ${first.at.slice(0, 10)}).` +
    (passedUs.length > 0 ? ` Passed us: ${passedUs.join(", ")}.` : " Nobody passed us.") +
    (wePassed.length > 0 ? ` We passed: ${wePassed.join(", ")}.` : "")
  );
}
