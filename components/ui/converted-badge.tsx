// Conversion status as a labelled badge (a check mark and words, not colour alone).
import { MISSING } from "@/lib/format/format";

export function ConvertedBadge({ converted }: { converted: boolean | undefined }) {
  if (converted === undefined) return <span className="muted">{MISSING}</span>;
  return converted ? <span className="badge badge-success">✓ Yes</span> : <span className="badge badge-neutral">No</span>;
}
