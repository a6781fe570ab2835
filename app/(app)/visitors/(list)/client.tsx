"use client";
// The visitor table: filters in the URL, paging with the total, a link to each visitor, export. The
// table is a widget streaming on its own; the filters show at once, each with the error the server
// gives for its parameter.
import Link from "next/link";
import { VISITOR_TABLE_COLUMNS, visitorRowKey } from "@/components/data-table/columns/visitors";
import { DataTable } from "@/components/data-table/data-table";
import { ExportButton } from "@/components/export/export-button";
import { SelectField, SuggestField } from "@/components/filters/fields";
import { intentChoices } from "@/components/filters/intent-choices";
import { RangeFields } from "@/components/filters/range-fields";
import { useListFilters } from "@/components/filters/use-list-filters";
import { EmptyState, InvalidFilterState, QueryView, SkeletonLines } from "@/components/states/states";
import { useWidgetQuery, Widget } from "@/components/states/widget";
import { Pagination } from "@/components/ui/pagination";
import { AI_SOURCES, LABELS, SOURCES } from "@/lib/data-api/constants";
import { humanize } from "@/lib/format/format";
import { invalidParamOf } from "@/lib/queries/error-status";
import { withoutPaging } from "@/lib/ui/view-filters";
import { visitorsSearchParams } from "./search-params";

const opt = (v: string) => ({ value: v, label: LABELS[v] ?? humanize(v) });

export function VisitorsClient() {
  const view = useListFilters(visitorsSearchParams, "/visitors");
  const { values: raw, setFilter, errorFor } = view;
  const hasFilters = (["source", "intent", "converted", "from", "to", "tz"] as const).some((k) => raw[k]);

  return (
    <div className="stack">
      <div className="page-header">
        <div>
          <h1>Visitors</h1>
          <p>Everyone who visited, where they came from and whether they converted.</p>
        </div>
        {!view.invalid && <ExportButton resource="visitors" filters={withoutPaging(view.query)} total={view.total} />}
      </div>
      <section className="card" aria-label="Filters">
        <form className="filters" onSubmit={(e) => e.preventDefault()} data-testid="filters">
          <SelectField
            name="source"
            label="Source"
            value={raw.source ?? ""}
            onChange={(v) => setFilter("source", v)}
            groups={[
              { label: "AI platforms", options: AI_SOURCES.map(opt) },
              { label: "Other sources", options: SOURCES.filter((s) => !(AI_SOURCES as readonly string[]).includes(s)).map(opt) },
            ]}
            error={errorFor("source")}
          />
          <SuggestField
            name="intent"
            label="Intent"
            value={raw.intent ?? ""}
            suggestions={intentChoices(view.rows?.map((v) => ("intent" in v ? v.intent : undefined)))}
            placeholder="Any intent"
            onApply={(v) => setFilter("intent", v)}
            error={errorFor("intent")}
          />
          <SelectField
            name="converted"
            label="Converted"
            value={raw.converted ?? ""}
            onChange={(v) => setFilter("converted", v)}
            options={[
              { value: "true", label: "Converted" },
              { value: "false", label: "Not converted" },
            ]}
            error={errorFor("converted")}
          />
          <RangeFields view={view} labels={["First seen from", "First seen to"]} />
          <div className="filters-actions">
            {hasFilters && (
              <Link className="button button-secondary" href="/visitors" data-testid="clear-filters">
                Clear filters
              </Link>
            )}
          </div>
        </form>
      </section>
      <section className="card" aria-labelledby="visitors-table-heading">
        <h2 id="visitors-table-heading" className="visually-hidden">
          Visitor list
        </h2>
        {view.rangeInvalid ? (
          <InvalidFilterState {...view.rangeInvalid} resetHref="/visitors" />
        ) : (
          <Widget what="visitors" loading={<SkeletonLines lines={8} height={22} />}>
            <VisitorTable view={view} />
          </Widget>
        )}
      </section>
    </div>
  );
}

function VisitorTable({ view }: { view: ReturnType<typeof useListFilters<"/visitors">> }) {
  const { list, offset, pageHref } = view;
  const query = useWidgetQuery(list);
  const invalid = invalidParamOf(query.error);
  if (invalid) return <InvalidFilterState {...invalid} resetHref="/visitors" />;
  return (
    <QueryView
      query={query}
      what="visitors"
      loading={<SkeletonLines lines={8} height={22} />}
      isEmpty={(d) => d.data.length === 0 && !d.unreadable}
      empty={
        <EmptyState title={offset > 0 ? "No visitors on this page" : "No visitors match these filters"}>
          {offset > 0 ? <Link href={pageHref(0)}>Go to the first page</Link> : "Try a wider date range or fewer filters."}
        </EmptyState>
      }
    >
      {(d) => (
        <div className={query.isPlaceholderData ? "is-pending" : undefined} aria-busy={query.isPlaceholderData}>
          <DataTable
            rows={d.data}
            columns={VISITOR_TABLE_COLUMNS}
            caption="Visitors"
            rowKey={visitorRowKey}
            testId="visitors-table"
            rowTestId="visitor-row"
            unreadable={d.unreadable}
          />
          <Pagination
            offset={d.meta.offset ?? offset}
            limit={view.limit}
            count={d.data.length}
            skipped={d.unreadable?.count}
            total={d.meta.total}
            noun="visitors"
            hrefFor={pageHref}
            onPage={view.goToPage}
            onLimit={(limit) => view.setFilter("limit", String(limit))}
          />
        </div>
      )}
    </QueryView>
  );
}
