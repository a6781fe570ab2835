"use client";
// One visitor: every field, then the complete timeline as a vertical list (newest or oldest first,
// in the URL, switched in place). The timeline streams, loads and fails on its own: a key without
// access to timelines still sees the visitor's details.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useQueryStates } from "nuqs";
import type { ReactNode } from "react";
import { CsvDownloadButton } from "@/components/export/csv-download-button";
import { TIMELINE_COLUMNS } from "@/lib/columns/timeline";
import { VISITOR_COLUMNS } from "@/lib/columns/visitors";
import { EmptyState, noRows, QueryView, SkeletonLines, UnreadableNotice } from "@/components/states/states";
import { useWidgetQuery, Widget } from "@/components/states/widget";
import { Card, type CardHead } from "@/components/ui/card";
import { ConvertedBadge } from "@/components/ui/converted-badge";
import { DateTime, ZoneName } from "@/components/ui/date-time";
import { ArrowLeftIcon } from "@/components/ui/icons";
import { SourceBadge } from "@/components/ui/source-badge";
import { IntentLabel, UnknownValue } from "@/components/ui/value-badge";
import { orderTimeline } from "@/components/ui/timeline-data";
import { eventLabel } from "@/lib/columns/labels";
import type { TimelineEvent, Visitor } from "@/lib/data-api/schemas";
import { formatCount, formatCountry, formatDuration, formatNumber, MISSING } from "@/lib/format/format";
import { apiQuery, browserApi } from "@/lib/queries/api";
import { errorStatus } from "@/lib/queries/error-status";
import { useRangeQuery } from "@/components/shell/nav-links";
import { dateRangeSearchParams } from "@/lib/range/date-range";
import { urlSerializer } from "@/lib/ui/url-state";
import VisitorNotFound from "./not-found";
import { visitorSearchParams, type TimelineOrder } from "./search-params";

// The order's links keep the header's range the page was opened with (a new tab too), so the way
// back to the list, and on to other pages, still has it.
const orderHref = urlSerializer({ ...visitorSearchParams, ...dateRangeSearchParams });

export function VisitorClient({ id }: { id: string }) {
  const [{ order }, setOrder] = useQueryStates(visitorSearchParams);
  const carry = useRangeQuery();
  const visitor = useQuery(apiQuery(browserApi, "/visitors/:id", { params: { id } }));
  // The server answers an unknown id with the not-found page; this covers a visitor that
  // disappears while the page is open.
  if (errorStatus(visitor.error) === 404) return <VisitorNotFound />;
  return (
    <div className="stack">
      <div>
        <Link href={`/visitors${carry}`} className="back-link">
          <ArrowLeftIcon /> Visitors
        </Link>
      </div>
      <div className="page-header">
        <div>
          <h1 className="mono" style={{ fontSize: "1.4rem" }}>
            {id}
          </h1>
          <p>Visitor details and everything they did, in order.</p>
        </div>
      </div>
      <Widget what="this visitor" card={DETAILS_CARD} loading={<SkeletonLines lines={4} />}>
        <DetailsCard id={id} />
      </Widget>
      <Widget
        what="this visitor's timeline"
        frame={(body) => timelineFrame(body, <OrderToggle order={order} onOrder={(o) => void setOrder({ order: o })} />)}
        loading={<SkeletonLines lines={6} height={28} />}
      >
        <TimelineCard id={id} order={order} onOrder={(o) => void setOrder({ order: o })} />
      </Widget>
    </div>
  );
}

const DETAILS_CARD: CardHead = { title: "Details", testId: "visitor-details" };

function DetailsCard({ id }: { id: string }) {
  const visitor = useWidgetQuery(apiQuery(browserApi, "/visitors/:id", { params: { id } }));
  return <QueryView query={visitor}>{(v) => <VisitorDetails visitor={v} />}</QueryView>;
}

/** How each field of a visitor reads on its page; the labels and their order are the visitor's columns. */
const DETAILS: Record<(typeof VISITOR_COLUMNS)[number]["key"], (v: Visitor) => ReactNode> = {
  id: (v) => <span className="mono">{v.id}</span>,
  first_seen: (v) => <DateTime iso={v.first_seen} />,
  last_seen: (v) => <DateTime iso={v.last_seen} />,
  source: (v) => <SourceBadge source={v.source} />,
  intent: (v) => <IntentLabel intent={v.intent} />,
  pages_viewed: (v) => formatNumber(v.pages_viewed),
  converted: (v) => <ConvertedBadge converted={v.converted} />,
  email: (v) => v.email ?? MISSING,
  country: (v) => (v.country ? `${formatCountry(v.country)} (${v.country})` : MISSING),
  city: (v) => v.city ?? MISSING,
};

function VisitorDetails({ visitor }: { visitor: Visitor }) {
  return (
    <dl className="details">
      {VISITOR_COLUMNS.map(({ key, label, kind }) => (
        // Times say their zone in the label, as the visitor table's headings do.
        <Item
          key={key}
          label={
            kind === "timestamp" ? (
              <>
                {label} (<ZoneName />)
              </>
            ) : (
              label
            )
          }
        >
          {DETAILS[key](visitor)}
        </Item>
      ))}
    </dl>
  );
}

function Item({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** Newest or oldest first: real links (a new tab opens that order), switched in place on a plain click. */
function OrderToggle({ order, onOrder }: { order: TimelineOrder; onOrder: (order: TimelineOrder) => void }) {
  const [range] = useQueryStates(dateRangeSearchParams);
  const link = (value: TimelineOrder, label: string) => (
    <Link
      href={orderHref({ ...range, order: value })}
      aria-current={order === value ? "true" : undefined}
      onNavigate={(event) => {
        event.preventDefault();
        onOrder(value);
      }}
      scroll={false}
      replace
      prefetch={false}
    >
      {label}
    </Link>
  );
  return (
    <nav className="segmented" aria-label="Timeline order">
      {link("newest", "Newest first")}
      {link("oldest", "Oldest first")}
    </nav>
  );
}

function timelineFrame(body: ReactNode, actions: ReactNode, description?: ReactNode) {
  return (
    <Card title="Timeline" description={description} testId="timeline-card" actions={actions}>
      {body}
    </Card>
  );
}

function TimelineCard({ id, order, onOrder }: { id: string; order: TimelineOrder; onOrder: (order: TimelineOrder) => void }) {
  const timeline = useWidgetQuery(apiQuery(browserApi, "/visitors/:id/timeline", { params: { id } }));
  const events = timeline.data ? orderTimeline(timeline.data.data, order) : [];
  const eventCount = timeline.data ? (
    <>
      {formatCount(events.length, "event")}, {order} first; times in <ZoneName />
    </>
  ) : undefined;
  return timelineFrame(
    <QueryView query={timeline} isEmpty={noRows} empty={<EmptyState title="No activity recorded for this visitor" />}>
      {(t) => (
        <>
          <UnreadableNotice unreadable={t.unreadable} noun={["event", "events"]} />
          <ol className="timeline" data-testid="timeline">
            {events.map((e, i) => (
              <TimelineItem key={`${i}-${e.id ?? ""}`} event={e} />
            ))}
          </ol>
        </>
      )}
    </QueryView>,
    <>
      <OrderToggle order={order} onOrder={onOrder} />
      {events.length > 0 && <CsvDownloadButton filename={`timeline_${id}`} columns={TIMELINE_COLUMNS} rows={events} />}
    </>,
    eventCount,
  );
}

function TimelineItem({ event: e }: { event: TimelineEvent }) {
  const label = e.type === undefined ? undefined : eventLabel(e.type);
  return (
    // Only a known type names a style: an upstream value never becomes a class name.
    <li className={label ? `timeline-item timeline-${e.type}` : "timeline-item"} data-testid="timeline-event" data-type={e.type}>
      <span className="timeline-dot" aria-hidden="true" />
      <div className="timeline-body">
        <div className="timeline-head">
          <span className="timeline-type">{label ?? (e.type === undefined ? "Event of unknown type" : <UnknownValue value={e.type} />)}</span>
          <DateTime iso={e.occurred_at} />
        </div>
        {(e.title || e.url) && (
          <p className="timeline-page">
            {e.title && <span>{e.title}</span>}
            {e.url && <span className="mono muted timeline-url">{e.url}</span>}
          </p>
        )}
        <p className="timeline-meta small muted">
          {e.source && (
            <span>
              Source: <SourceBadge source={e.source} />
            </span>
          )}
          {e.duration_seconds !== undefined && <span>Time on page: {formatDuration(e.duration_seconds)}</span>}
        </p>
      </div>
    </li>
  );
}
