"use client";
// The visitor table: filters in the URL, paging with the total, a link to each visitor, export.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { VISITOR_TABLE_COLUMNS, visitorRowKey } from "@/components/data-table/columns/visitors";
import { DataTable } from "@/components/data-table/data-table";
import { ExportButton } from "@/components/export/export-button";
import { DateField, SelectField, SuggestField } from "@/components/filters/fields";
import { useUrlFilters } from "@/components/filters/use-url-filters";
import { EmptyState, QueryView, SkeletonLines } from "@/components/states/states";
import { DateTime } from "@/components/ui/date-time";
import { Pagination } from "@/components/ui/pagination";
import { AI_SOURCES, KNOWN_INTENTS, LABELS, SOURCES } from "@/lib/data-api/constants";
import type { VisitorListParams } from "@/lib/data-api/params";
import { humanize } from "@/lib/format/format";
import { apiQuery, browserApi } from "@/lib/queries/api";
import { withoutPaging } from "@/lib/ui/view-filters";
import type { VisitorsSearch } from "./search-params";

const opt = (v: string) => ({ value: v, label: LABELS[v] ?? humanize(v) });

export function VisitorsClient({ search }: { search: VisitorsSearch }) {
  const { raw, result } = search;
  const { pending, setFilters, hrefFor } = useUrlFilters("/visitors", raw);
  const errorFor = (param: string) => (!result.success && result.param === param ? result.message : undefined);
  const hasFilters = ["source", "intent", "converted", "from", "to"].some((k) => raw[k]);

  return (
    <div className="stack">
      <div className="page-header">
        <div>
          <h1>Visitors</h1>
          <p>Everyone who visited, where they came from and whether they converted.</p>
        </div>
        {result.success && <VisitorsExport params={result.data} />}
      </div>
      <section className="card" aria-label="Filters">
        <form className="filters" onSubmit={(e) => e.preventDefault()} data-testid="filters">
          <SelectField
            name="source"
            label="Source"
            value={raw.source ?? ""}
            onChange={(v) => setFilters({ source: v })}
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
            suggestions={KNOWN_INTENTS}
            placeholder="Any intent"
            onApply={(v) => setFilters({ intent: v })}
            error={errorFor("intent")}
          />
          <SelectField
            name="converted"
            label="Converted"
            value={raw.converted ?? ""}
            onChange={(v) => setFilters({ converted: v })}
            options={[
              { value: "true", label: "Converted" },
              { value: "false", label: "Not converted" },
            ]}
            error={errorFor("converted")}
          />
          <DateField name="from" label="First seen from" value={raw.from ?? ""} onChange={(v) => setFilters({ from: v })} error={errorFor("from")} hint={<DateTime iso={raw.from} />} />
          <DateField name="to" label="First seen to" value={raw.to ?? ""} onChange={(v) => setFilters({ to: v })} error={errorFor("to")} hint={<DateTime iso={raw.to} />} />
          <div className="filters-actions">
            {hasFilters && (
              <Link className="button button-secondary" href="/visitors" data-testid="clear-filters">
                Clear filters
              </Link>
            )}
          </div>
        </form>
      </section>
      <section className="card" aria-labelledby="visitors-table-heading" aria-busy={pending}>
        <h2 id="visitors-table-heading" className="visually-hidden">
          Visitor list
        </h2>
        {result.success ? (
          <VisitorTable params={result.data} pending={pending} hrefFor={hrefFor} onLimit={(limit) => setFilters({ limit: String(limit) })} />
        ) : (
          <div className="state state-error" role="alert" data-testid="param-error">
            <p className="state-title">This view has an invalid filter</p>
            <p className="small">
              <code>{result.param}</code>: {result.message}
            </p>
            <Link className="button button-secondary button-small" href="/visitors">
              Reset filters
            </Link>
          </div>
        )}
      </section>
    </div>
  );
}

function VisitorsExport({ params }: { params: VisitorListParams }) {
  // Shares the table's cache entry: the total is known as soon as the list is.
  const query = useQuery(apiQuery(browserApi, "/visitors", { query: params }));
  return <ExportButton resource="visitors" filters={withoutPaging(params)} total={query.data && !query.isPlaceholderData ? query.data.meta.total : undefined} />;
}

function VisitorTable({
  params,
  pending,
  hrefFor,
  onLimit,
}: {
  params: VisitorListParams;
  pending: boolean;
  hrefFor: (changes: Record<string, string | undefined>, resetOffset?: boolean) => string;
  onLimit: (limit: number) => void;
}) {
  const query = useQuery(apiQuery(browserApi, "/visitors", { query: params }));
  return (
    <QueryView
      query={query}
      what="visitors"
      loading={<SkeletonLines lines={8} height={22} />}
      isEmpty={(d) => d.data.length === 0 && !d.unreadable}
      empty={
        <EmptyState title={params.offset > 0 ? "No visitors on this page" : "No visitors match these filters"}>
          {params.offset > 0 ? <Link href={hrefFor({ offset: undefined })}>Go to the first page</Link> : "Try a wider date range or fewer filters."}
        </EmptyState>
      }
    >
      {(d) => (
        <div className={pending || query.isPlaceholderData ? "is-pending" : undefined}>
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
            offset={d.meta.offset ?? params.offset}
            limit={params.limit}
            count={d.data.length}
            skipped={d.unreadable?.count}
            total={d.meta.total}
            noun="visitors"
            hrefFor={(offset) => hrefFor({ offset: offset === 0 ? undefined : String(offset) }, false)}
            onLimit={onLimit}
          />
        </div>
      )}
    </QueryView>
  );
}
