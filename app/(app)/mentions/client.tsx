"use client";
// The mentions feed: a card per mention (platform, sentiment, position, query, snippet, competitors,
// time), filters in the URL, paging and export. The feed is a widget streaming on its own.
// Besides the Data API's filters (platform, sentiment, the range), a question (`query`: what a row
// of /queries opens) and a competitor (what a row of the share of voice opens) are filters the
// dashboard applies itself over the range's mentions, so the total is exactly that question's or
// competitor's mentions, and the export holds the same rows.
import { SelectField, SuggestField } from "@/components/filters/fields";
import { RangeFields } from "@/components/filters/range-fields";
import { useListFilters } from "@/components/filters/use-list-filters";
import { ListView } from "@/components/list-view/list-view";
import { SkeletonCards, UncheckedNotice, UnreadableNotice } from "@/components/states/states";
import { DateTime } from "@/components/ui/date-time";
import { SourceBadge } from "@/components/ui/source-badge";
import { SentimentBadge } from "@/components/ui/value-badge";
import { LABELS, PLATFORMS, SENTIMENTS } from "@/lib/data-api/constants";
import type { Mention } from "@/lib/data-api/schemas";
import { humanize, MISSING } from "@/lib/format/format";
import { mentionsSearchParams } from "./search-params";

/** Distinct values seen on the page, as suggestions for a free-text filter (first seen first). */
const seen = (values: ReadonlyArray<string | undefined>): string[] => [...new Set(values.flatMap((v) => (v?.trim() ? [v.trim()] : [])))];

export function MentionsClient() {
  const view = useListFilters(mentionsSearchParams, "/mentions");
  const { field } = view;
  const rows = view.rows as readonly Mention[] | undefined;
  return (
    <ListView
      view={view}
      title="Mentions"
      intro="How AI platforms talk about the brand, and which competitors they name alongside it."
      filters={
        <>
          <SelectField {...field("platform")} label="Platform" options={PLATFORMS.map((p) => ({ value: p, label: LABELS[p] ?? p }))} />
          <SelectField {...field("sentiment")} label="Sentiment" options={SENTIMENTS.map((s) => ({ value: s, label: humanize(s) }))} />
          <SuggestField
            {...field("query")}
            label="Question"
            suggestions={seen(rows?.map((m) => m.query) ?? [])}
            placeholder="Any question"
            note="However it is written: capitals and spaces around it do not count."
          />
          <SuggestField
            {...field("competitor")}
            label="Competitor named"
            suggestions={seen(rows?.flatMap((m) => m.competitors_mentioned ?? []) ?? [])}
            placeholder="Any or none"
          />
          <RangeFields view={view} labels={["From", "To"]} />
        </>
      }
      heading="Mentions"
      feed
      loading={<SkeletonCards className="mention-grid" />}
      emptyHint="Try another platform, sentiment, question or competitor, or a wider date range."
    >
      {(d) => (
        <>
          <UnreadableNotice unreadable={d.unreadable} noun={["mention", "mentions"]} />
          <UncheckedNotice unchecked={d.unchecked} noun={["mention", "mentions"]} />
          <ul className="mention-grid" data-testid="mentions-feed">
            {d.data.map((m, i) => (
              <MentionCard key={`${i}-${m.id}`} mention={m} />
            ))}
          </ul>
        </>
      )}
    </ListView>
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
          <DateTime iso={m.created_at} mode="both" />
        </span>
      </div>
      {/* data-content: text written by AI platforms (or people), not the dashboard's own words. */}
      <p className="mention-query" data-content="upstream">
        <span className="visually-hidden">Query: </span>
        {m.query === undefined ? <span className="muted">{MISSING}</span> : `“${m.query}”`}
      </p>
      <blockquote className="mention-snippet" data-content="upstream">
        {m.response_snippet ?? MISSING}
      </blockquote>
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
