"use client";
// The mentions feed: a card per mention (platform, sentiment, position, query, snippet, competitors,
// time), filters in the URL, paging and export.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { ExportButton } from "@/components/export/export-button";
import { DateField, SelectField } from "@/components/filters/fields";
import { useUrlFilters } from "@/components/filters/use-url-filters";
import { EmptyState, QueryView, SkeletonLines, UnreadableNotice } from "@/components/states/states";
import { DateTime } from "@/components/ui/date-time";
import { Pagination } from "@/components/ui/pagination";
import { SourceBadge } from "@/components/ui/source-badge";
import { SentimentBadge } from "@/components/ui/value-badge";
import { LABELS, PLATFORMS, SENTIMENTS } from "@/lib/data-api/constants";
import type { MentionListParams } from "@/lib/data-api/params";
import type { Mention } from "@/lib/data-api/schemas";
import { humanize, MISSING } from "@/lib/format/format";
import { apiQuery, browserApi } from "@/lib/queries/api";
import { withoutPaging } from "@/lib/ui/view-filters";
import type { MentionsSearch } from "./search-params";

export function MentionsClient({ search }: { search: MentionsSearch }) {
  const { raw, result } = search;
  const { pending, setFilters, hrefFor } = useUrlFilters("/mentions", raw);
  const errorFor = (param: string) => (!result.success && result.param === param ? result.message : undefined);
  const hasFilters = ["platform", "sentiment", "from", "to"].some((k) => raw[k]);
  return (
    <div className="stack">
      <div className="page-header">
        <div>
          <h1>Mentions</h1>
          <p>How AI platforms talk about the brand, and which competitors they name alongside it.</p>
        </div>
        {result.success && <MentionsExport params={result.data} />}
      </div>
      <section className="card" aria-label="Filters">
        <form className="filters" onSubmit={(e) => e.preventDefault()} data-testid="filters">
          <SelectField
            name="platform"
            label="Platform"
            value={raw.platform ?? ""}
            onChange={(v) => setFilters({ platform: v })}
            options={PLATFORMS.map((p) => ({ value: p, label: LABELS[p] ?? p }))}
            error={errorFor("platform")}
          />
          <SelectField
            name="sentiment"
            label="Sentiment"
            value={raw.sentiment ?? ""}
            onChange={(v) => setFilters({ sentiment: v })}
            options={SENTIMENTS.map((s) => ({ value: s, label: humanize(s) }))}
            error={errorFor("sentiment")}
          />
          <DateField name="from" label="From" value={raw.from ?? ""} onChange={(v) => setFilters({ from: v })} error={errorFor("from")} hint={<DateTime iso={raw.from} />} />
          <DateField name="to" label="To" value={raw.to ?? ""} onChange={(v) => setFilters({ to: v })} error={errorFor("to")} hint={<DateTime iso={raw.to} />} />
          <div className="filters-actions">
            {hasFilters && (
              <Link className="button button-secondary" href="/mentions" data-testid="clear-filters">
                Clear filters
              </Link>
            )}
          </div>
        </form>
      </section>
      <section aria-labelledby="mentions-heading" aria-busy={pending}>
        <h2 id="mentions-heading" className="visually-hidden">
          Mentions
        </h2>
        {result.success ? (
          <MentionFeed params={result.data} pending={pending} hrefFor={hrefFor} onLimit={(limit) => setFilters({ limit: String(limit) })} />
        ) : (
          <div className="card">
            <div className="state state-error" role="alert" data-testid="param-error">
              <p className="state-title">This view has an invalid filter</p>
              <p className="small">
                <code>{result.param}</code>: {result.message}
              </p>
              <Link className="button button-secondary button-small" href="/mentions">
                Reset filters
              </Link>
            </div>
          </div>
        )}
      </section>
    </div>
  );
}

function MentionsExport({ params }: { params: MentionListParams }) {
  const query = useQuery(apiQuery(browserApi, "/mentions", { query: params }));
  return <ExportButton resource="mentions" filters={withoutPaging(params)} total={query.data && !query.isPlaceholderData ? query.data.meta.total : undefined} />;
}

function MentionFeed({
  params,
  pending,
  hrefFor,
  onLimit,
}: {
  params: MentionListParams;
  pending: boolean;
  hrefFor: (changes: Record<string, string | undefined>, resetOffset?: boolean) => string;
  onLimit: (limit: number) => void;
}) {
  const query = useQuery(apiQuery(browserApi, "/mentions", { query: params }));
  const loading = (
    <div className="mention-grid">
      {[0, 1, 2, 3].map((i) => (
        <div className="card" key={i}>
          <SkeletonLines lines={4} />
        </div>
      ))}
    </div>
  );
  return (
    <QueryView
      query={query}
      what="mentions"
      loading={loading}
      isEmpty={(d) => d.data.length === 0 && !d.unreadable}
      empty={
        <div className="card">
          <EmptyState title={params.offset > 0 ? "No mentions on this page" : "No mentions match these filters"}>
            {params.offset > 0 ? <Link href={hrefFor({ offset: undefined })}>Go to the first page</Link> : "Try another platform, sentiment or a wider date range."}
          </EmptyState>
        </div>
      }
    >
      {(d) => (
        <div className={pending || query.isPlaceholderData ? "is-pending" : undefined}>
          <UnreadableNotice unreadable={d.unreadable} noun={["mention", "mentions"]} />
          <ul className="mention-grid" data-testid="mentions-feed">
            {d.data.map((m, i) => (
              <MentionCard key={`${i}-${m.id}`} mention={m} />
            ))}
          </ul>
          <div className="card" style={{ marginTop: 16, paddingTop: 4, paddingBottom: 16 }}>
            <Pagination
              offset={d.meta.offset ?? params.offset}
              limit={params.limit}
              count={d.data.length}
              skipped={d.unreadable?.count}
              total={d.meta.total}
              noun="mentions"
              hrefFor={(offset) => hrefFor({ offset: offset === 0 ? undefined : String(offset) }, false)}
              onLimit={onLimit}
            />
          </div>
        </div>
      )}
    </QueryView>
  );
}

function MentionCard({ mention: m }: { mention: Mention }) {
  return (
    <li className="card mention" data-testid="mention-card">
      <div className="mention-head">
        <SourceBadge source={m.platform} />
        <SentimentBadge sentiment={m.sentiment} />
        <span className="badge badge-neutral" title="Position of the brand in the answer">
          Position {m.position ?? MISSING}
        </span>
        <span className="mention-time muted small">
          <DateTime iso={m.created_at} mode="relative" />
        </span>
      </div>
      <p className="mention-query">
        <span className="visually-hidden">Query: </span>
        {m.query === undefined ? <span className="muted">{MISSING}</span> : `“${m.query}”`}
      </p>
      <blockquote className="mention-snippet">{m.response_snippet ?? MISSING}</blockquote>
      <div className="mention-foot small">
        <span className="muted">Competitors named:</span>{" "}
        {m.competitors_mentioned && m.competitors_mentioned.length > 0 ? (
          <span className="chips">
            {m.competitors_mentioned.map((c, i) => (
              <span key={`${i}-${c}`} className="chip">
                {c}
              </span>
            ))}
          </span>
        ) : (
          <span className="muted">none</span>
        )}
      </div>
    </li>
  );
}
