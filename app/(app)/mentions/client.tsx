"use client";
// The mentions feed: a card per mention (platform, sentiment, position, query, snippet, competitors,
// time), filters in the URL, paging and export. The feed is a widget streaming on its own.
import Link from "next/link";
import { ExportButton } from "@/components/export/export-button";
import { SelectField } from "@/components/filters/fields";
import { RangeFields } from "@/components/filters/range-fields";
import { useListFilters } from "@/components/filters/use-list-filters";
import { EmptyState, InvalidFilterState, QueryView, SkeletonLines, UnreadableNotice } from "@/components/states/states";
import { useWidgetQuery, Widget } from "@/components/states/widget";
import { DateTime } from "@/components/ui/date-time";
import { Pagination } from "@/components/ui/pagination";
import { SourceBadge } from "@/components/ui/source-badge";
import { SentimentBadge } from "@/components/ui/value-badge";
import { LABELS, PLATFORMS, SENTIMENTS } from "@/lib/data-api/constants";
import type { Mention } from "@/lib/data-api/schemas";
import { humanize, MISSING } from "@/lib/format/format";
import { invalidParamOf } from "@/lib/queries/error-status";
import { withoutPaging } from "@/lib/ui/view-filters";
import { mentionsSearchParams } from "./search-params";

export function MentionsClient() {
  const view = useListFilters(mentionsSearchParams, "/mentions");
  const { values: raw, setFilter, errorFor } = view;
  const hasFilters = (["platform", "sentiment", "from", "to", "tz"] as const).some((k) => raw[k]);
  return (
    <div className="stack">
      <div className="page-header">
        <div>
          <h1>Mentions</h1>
          <p>How AI platforms talk about the brand, and which competitors they name alongside it.</p>
        </div>
        {!view.invalid && <ExportButton resource="mentions" filters={withoutPaging(view.query)} total={view.total} />}
      </div>
      <section className="card" aria-label="Filters">
        <form className="filters" onSubmit={(e) => e.preventDefault()} data-testid="filters">
          <SelectField
            name="platform"
            label="Platform"
            value={raw.platform ?? ""}
            onChange={(v) => setFilter("platform", v)}
            options={PLATFORMS.map((p) => ({ value: p, label: LABELS[p] ?? p }))}
            error={errorFor("platform")}
          />
          <SelectField
            name="sentiment"
            label="Sentiment"
            value={raw.sentiment ?? ""}
            onChange={(v) => setFilter("sentiment", v)}
            options={SENTIMENTS.map((s) => ({ value: s, label: humanize(s) }))}
            error={errorFor("sentiment")}
          />
          <RangeFields view={view} labels={["From", "To"]} />
          <div className="filters-actions">
            {hasFilters && (
              <Link className="button button-secondary" href="/mentions" data-testid="clear-filters">
                Clear filters
              </Link>
            )}
          </div>
        </form>
      </section>
      <section aria-labelledby="mentions-heading">
        <h2 id="mentions-heading" className="visually-hidden">
          Mentions
        </h2>
        {view.rangeInvalid ? (
          <div className="card">
            <InvalidFilterState {...view.rangeInvalid} resetHref="/mentions" />
          </div>
        ) : (
          <Widget what="mentions" loading={<MentionSkeleton />}>
            <MentionFeed view={view} />
          </Widget>
        )}
      </section>
    </div>
  );
}

function MentionSkeleton() {
  return (
    <div className="mention-grid">
      {[0, 1, 2, 3].map((i) => (
        <div className="card" key={i}>
          <SkeletonLines lines={4} />
        </div>
      ))}
    </div>
  );
}

function MentionFeed({ view }: { view: ReturnType<typeof useListFilters<"/mentions">> }) {
  const { list, offset, pageHref } = view;
  const query = useWidgetQuery(list);
  const invalid = invalidParamOf(query.error);
  if (invalid) {
    return (
      <div className="card">
        <InvalidFilterState {...invalid} resetHref="/mentions" />
      </div>
    );
  }
  return (
    <QueryView
      query={query}
      what="mentions"
      loading={<MentionSkeleton />}
      isEmpty={(d) => d.data.length === 0 && !d.unreadable}
      empty={
        <div className="card">
          <EmptyState title={offset > 0 ? "No mentions on this page" : "No mentions match these filters"}>
            {offset > 0 ? <Link href={pageHref(0)}>Go to the first page</Link> : "Try another platform, sentiment or a wider date range."}
          </EmptyState>
        </div>
      }
    >
      {(d) => (
        <div className={query.isPlaceholderData ? "is-pending" : undefined} aria-busy={query.isPlaceholderData}>
          <UnreadableNotice unreadable={d.unreadable} noun={["mention", "mentions"]} />
          <ul className="mention-grid" data-testid="mentions-feed">
            {d.data.map((m, i) => (
              <MentionCard key={`${i}-${m.id}`} mention={m} />
            ))}
          </ul>
          <div className="card" style={{ marginTop: 16, paddingTop: 4, paddingBottom: 16 }}>
            <Pagination
              offset={d.meta.offset ?? offset}
              limit={view.limit}
              count={d.data.length}
              skipped={d.unreadable?.count}
              total={d.meta.total}
              noun="mentions"
              hrefFor={pageHref}
              onPage={view.goToPage}
              onLimit={(limit) => view.setFilter("limit", String(limit))}
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
