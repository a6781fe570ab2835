// Enum-ish values as the UI shows them. The Data API's sets are open (intent) or may grow (sources,
// platforms, sentiments, event types): a known value gets its label and style, an unknown one is
// shown exactly as sent (React escapes it) in a neutral badge, and a missing one as "—".
import { intentLabelOf, sentimentLabelOf } from "@/lib/columns/labels";
import { SENTIMENTS } from "@/lib/data-api/constants";
import { MISSING } from "@/lib/format/format";

export function UnknownValue({ value }: { value: string }) {
  return (
    <span className="badge badge-neutral badge-unknown" title={`${value} (a value this dashboard does not know)`} data-testid="unknown-value">
      {value}
    </span>
  );
}

export const Missing = () => <span className="muted">{MISSING}</span>;

const isOneOf = <T extends string>(set: readonly T[], value: string): value is T => (set as readonly string[]).includes(value);

export function IntentLabel({ intent }: { intent: string | undefined }) {
  if (!intent) return <Missing />;
  const label = intentLabelOf(intent);
  return label === undefined ? <UnknownValue value={intent} /> : <>{label}</>;
}

const SENTIMENT_MARK: Record<(typeof SENTIMENTS)[number], string> = { positive: "▲", neutral: "●", negative: "▼" };

export function SentimentBadge({ sentiment }: { sentiment: string | undefined }) {
  if (!sentiment) return null;
  if (!isOneOf(SENTIMENTS, sentiment)) return <UnknownValue value={sentiment} />;
  return (
    <span className={`badge badge-${sentiment}`} data-testid="mention-sentiment">
      <span aria-hidden="true">{SENTIMENT_MARK[sentiment]}</span> {sentimentLabelOf(sentiment)}
    </span>
  );
}
