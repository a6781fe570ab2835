// How the visitor table shows each declared visitor column (lib/columns/visitors.ts): the id links
// to the visitor, sources and intents as badges (unknown values as sent), and which columns give way
// on narrower tables. City and country share a cell ("Bologna, IT"), the country's name on hover.
// The id's link carries the header's range, so it is still there on the way back.
import Link from "next/link";
import { useRangeQuery } from "@/components/shell/nav-links";
import { ConvertedBadge } from "@/components/ui/converted-badge";
import { SourceBadge } from "@/components/ui/source-badge";
import { IntentLabel, Missing } from "@/components/ui/value-badge";
import { VISITOR_COLUMNS } from "@/lib/columns/visitors";
import type { Visitor } from "@/lib/data-api/schemas";
import { formatCountry } from "@/lib/format/format";
import { columnsFor, type TableColumn } from "../table-column";

const { column, combined } = columnsFor<Visitor>()(VISITOR_COLUMNS);

export const VISITOR_TABLE_COLUMNS: readonly TableColumn<Visitor>[] = [
  column("id", {
    rowHeader: true,
    cardTitle: true,
    cell: (v) => <VisitorLink id={v.id} />,
  }),
  column("first_seen"),
  column("last_seen", { showFrom: "xl" }),
  column("source", { cell: (v) => <SourceBadge source={v.source} /> }),
  column("intent", { showFrom: "md", cell: (v) => <IntentLabel intent={v.intent} /> }),
  column("pages_viewed"),
  column("converted", { cell: (v) => <ConvertedBadge converted={v.converted} /> }),
  column("email", { showFrom: "lg", fit: "ellipsis" }),
  combined(["city", "country"], {
    cell: (v) => {
      const location = [v.city, v.country].filter(Boolean).join(", ");
      return location ? <span title={v.country ? formatCountry(v.country) : undefined}>{location}</span> : <Missing />;
    },
  }),
];

function VisitorLink({ id }: { id: string }) {
  return (
    <Link href={`/visitors/${encodeURIComponent(id)}${useRangeQuery()}`} className="mono">
      {id}
    </Link>
  );
}

export const visitorRowKey = (v: Visitor, index: number): string => `${index}-${v.id}`;
