"use client";
// The visitor table: filters in the URL, paging with the total, a link to each visitor, export. The
// table is a widget streaming on its own; the filters show at once, each with the error the server
// gives for its parameter. "All AI platforms" (`source=ai`, what the overview's AI visitors opens) is
// one list the dashboard makes itself from the four platforms' (lib/lists).
import { VISITOR_TABLE_COLUMNS, visitorRowKey } from "@/components/data-table/columns/visitors";
import { DataTable } from "@/components/data-table/data-table";
import { SelectField, SuggestField } from "@/components/filters/fields";
import { intentChoices } from "@/components/filters/intent-choices";
import { RangeFields } from "@/components/filters/range-fields";
import { useListFilters } from "@/components/filters/use-list-filters";
import { ListView } from "@/components/list-view/list-view";
import { SkeletonLines, UncheckedNotice } from "@/components/states/states";
import { AI_SOURCE_GROUP, AI_SOURCES, LABELS, SOURCES } from "@/lib/data-api/constants";
import { humanize } from "@/lib/format/format";
import { visitorsSearchParams } from "./search-params";

const opt = (v: string) => ({ value: v, label: LABELS[v] ?? humanize(v) });
const SOURCE_GROUPS = [
  { label: "AI platforms", options: [{ value: AI_SOURCE_GROUP, label: "All AI platforms" }, ...AI_SOURCES.map(opt)] },
  { label: "Other sources", options: SOURCES.filter((s) => !(AI_SOURCES as readonly string[]).includes(s)).map(opt) },
];
const CONVERTED_OPTIONS = [
  { value: "true", label: "Converted" },
  { value: "false", label: "Not converted" },
];

export function VisitorsClient() {
  const view = useListFilters(visitorsSearchParams, "/visitors");
  const { field } = view;
  return (
    <ListView
      view={view}
      title="Visitors"
      intro="Everyone who visited, where they came from and whether they converted."
      filters={
        <>
          <SelectField {...field("source")} label="Source" groups={SOURCE_GROUPS} />
          <SuggestField
            {...field("intent")}
            label="Intent"
            suggestions={intentChoices(view.rows?.map((v) => ("intent" in v ? v.intent : undefined)))}
            placeholder="Any intent"
          />
          <SelectField {...field("converted")} label="Converted" options={CONVERTED_OPTIONS} />
          <RangeFields view={view} labels={["First seen from", "First seen to"]} />
        </>
      }
      heading="Visitor list"
      loading={<SkeletonLines lines={8} height={22} />}
      emptyHint="Try a wider date range or fewer filters."
    >
      {(d) => (
        <>
          <UncheckedNotice unchecked={d.unchecked} noun={["visitor", "visitors"]} />
          <DataTable
            rows={d.data}
            columns={VISITOR_TABLE_COLUMNS}
            caption="Visitors"
            rowKey={visitorRowKey}
            testId="visitors-table"
            rowTestId="visitor-row"
            unreadable={d.unreadable}
          />
        </>
      )}
    </ListView>
  );
}
