// A rule in one sentence, its threshold filled in: how Settings lists a rule and how the activity list
// records one added or deleted (the words are kept with the record, so they outlive the rule). Shared
// by the browser and the server.
import { formatThreshold } from "@/lib/format/format";
import type { RuleKind } from "./rules";

const num = (n: number | null) => (n === null ? "?" : formatThreshold(n));

export const RULE_SENTENCES: Record<RuleKind, (threshold: number | null) => string> = {
  score_drop: (t) => `The score falls by ${num(t)} points or more since the previous snapshot`,
  score_below: (t) => `The score is below ${num(t)}`,
  rank_passed: () => "A competitor passes us in the ranking",
  negative_mentions: (t) => `${num(t)} or more negative mentions in a day`,
  ai_visitors_drop: (t) => `AI visitors of a day fall ${num(t)}% or more below the previous 7 days' average, beyond normal variation`,
  conversions_drop: (t) => `Conversions of a day fall ${num(t)}% or more below the previous 7 days' average, beyond normal variation`,
};

export const ruleSentence = (rule: { kind: RuleKind; threshold: number | null }) => RULE_SENTENCES[rule.kind](rule.threshold);
