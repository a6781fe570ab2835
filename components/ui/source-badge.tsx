// A traffic source or AI platform name, AI platforms marked as such (text, not colour alone).
import { isAiSource, LABELS } from "@/lib/data-api/constants";
import { humanize, MISSING } from "@/lib/format/format";

export function SourceBadge({ source }: { source: string | undefined }) {
  if (!source) return <span className="muted">{MISSING}</span>;
  const label = LABELS[source] ?? humanize(source);
  if (!isAiSource(source)) return <span className="nowrap">{label}</span>;
  return (
    <span className="badge badge-ai" title="AI platform">
      {label}
      <span className="visually-hidden"> (AI platform)</span>
    </span>
  );
}
