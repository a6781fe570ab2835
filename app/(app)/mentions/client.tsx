"use client";
// The mentions feed: a card per mention (platform, sentiment, position, query, snippet, competitors,
// time), filters in the URL, paging and export. The feed is a widget streaming on its own.
// `highlight` (a row of /queries opens it) marks the mentions of one question: the Data API cannot
// filter mentions by question, so the list stays every mention of the filters and says so plainly.
import Link from "next/link";
import { useQueryStates } from "nuqs";
import { SelectField } from "@/components/filters/fields";
import { RangeFields } from "@/components/filters/range-fields";
import { useListFilters } from "@/components/filters/use-list-filters";
import { ListView } from "@/components/list-view/list-view";
import { SkeletonCards, UnreadableNotice } from "@/components/states/states";
import { DateTime } from "@/components/ui/date-time";
import { SourceBadge } from "@/components/ui/source-badge";
import { SentimentBadge } from "@/components/ui/value-badge";
import { LABELS, PLATFORMS, SENTIMENTS } from "@/lib/data-api/constants";
import type { Mention } from "@/lib/data-api/schemas";
import { humanize, MISSING } from "@/lib/format/format";
import { sameQuestion } from "@/components/queries/question-key";
import { urlSerializer } from "@/lib/ui/url-state";
import { highlightSearchParams, mentionsSearchParams } from "./search-params";

const mentionsUrl = urlSerializer({ ...mentionsSearchParams, ...highlightSearchParams });

export function MentionsClient() {
  const view = useListFilters(mentionsSearchParams, "/mentions");
  const { field } = view;
  const [{ highlight }] = useQueryStates(highlightSearchParams);
  const question = highlight?.trim() ? highlight.trim() : null;
  return (
    <ListView
      view={view}
      title="Mentions"
      intro="How AI platforms talk about the brand, and which competitors they name alongside it."
      filters={
        <>
          <SelectField {...field("platform")} label="Platform" options={PLATFORMS.map((p) => ({ value: p, label: LABELS[p] ?? p }))} />
          <SelectField {...field("sentiment")} label="Sentiment" options={SENTIMENTS.map((s) => ({ value: s, label: humanize(s) }))} />
          <RangeFields view={view} labels={["From", "To"]} />
        </>
      }
      heading="Mentions"
      feed
      loading={<SkeletonCards className="mention-grid" />}
      emptyHint="Try another platform, sentiment or a wider date range."
    >
      {(d) => (
        <>
          <UnreadableNotice unreadable={d.unreadable} noun={["mention", "mentions"]} />
          {question && (
            <HighlightNotice
              question={question}
              onPage={d.data.filter((m) => sameQuestion(m.query, question)).length}
              clearHref={`/mentions${mentionsUrl({ ...view.values, highlight: null })}`}
            />
          )}
          <ul className="mention-grid" data-testid="mentions-feed">
            {d.data.map((m, i) => (
              <MentionCard key={`${i}-${m.id}`} mention={m} highlighted={question !== null && sameQuestion(m.query, question)} />
            ))}
          </ul>
        </>
      )}
    </ListView>
  );
}

/** What a highlight is and is not: every mention of the filters, the question's marked; never a filter. */
function HighlightNotice({ question, onPage, clearHref }: { question: string; onPage: number; clearHref: string }) {
  return (
    <p className="notice notice-info" data-testid="highlight-notice">
      <span>
        These are all the mentions of the range and filters, with the question <strong>“{question}”</strong> highlighted ({onPage} on this page). Mentions
        cannot be filtered by question, so the others stay in the list. <Link href={clearHref}>Stop highlighting</Link>
      </span>
    </p>
  );
}

function MentionCard({ mention: m, highlighted }: { mention: Mention; highlighted: boolean }) {
  return (
    <li className={`card mention${highlighted ? " mention-highlighted" : ""}`} data-testid="mention-card" data-highlighted={highlighted || undefined}>
      <div className="mention-head">
        {highlighted && <span className="badge badge-accent">The question</span>}
        <SourceBadge source={m.platform} />
        <SentimentBadge sentiment={m.sentiment} />
        <span className="badge badge-neutral" title="Position of the brand in the answer">
          Position {m.position ?? MISSING}
        </span>
        <span className="mention-time muted small">
          <DateTime iso={m.created_at} mode="both" />
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
