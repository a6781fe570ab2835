// A traffic source or AI platform name, AI platforms marked as such (text, not colour alone); a
// source this dashboard does not know is shown as sent, in a neutral badge.
import { isAiSource, sourceLabelOf } from "@/lib/data-api/constants";
import { Missing, UnknownValue } from "./value-badge";

export function SourceBadge({ source }: { source: string | undefined }) {
  if (!source) return <Missing />;
  const label = sourceLabelOf(source);
  if (label === undefined) return <UnknownValue value={source} />;
  if (!isAiSource(source)) return <span className="nowrap">{label}</span>;
  return (
    <span className="badge badge-ai" title="AI platform">
      {label}
      <span className="visually-hidden"> (AI platform)</span>
    </span>
  );
}
