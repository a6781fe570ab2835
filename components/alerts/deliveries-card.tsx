"use client";
// Settings' deliveries: every attempt to send an alert, a digest or a test, newest first (the latest
// 50), each with when (relative and exact), where, what, which attempt, its status and the answer
// (response code or error), in the shared data table (cards on a phone). A failed one that can be
// sent again has a Retry button. The list is read again every few seconds while an attempt is being
// retried or a test just sent is not listed yet (lib/queries/alerts.ts), and not otherwise.
import { useEffect, useState } from "react";
import { DataTable } from "@/components/data-table/data-table";
import type { TableColumn } from "@/components/data-table/table-column";
import { useDisplayTimeZone } from "@/components/range/display-time-zone";
import { Card } from "@/components/ui/card";
import { DateTime } from "@/components/ui/date-time";
import { formatDateTime, formatNumber } from "@/lib/format/format";
import { DELIVERIES_SHOWN, deliveriesNeedPolling, useAlertWrites, useDeliveries, type Delivery } from "@/lib/queries/alerts";
import { DELIVERY_STATUS, DELIVERY_TYPES, problemText, responseText } from "./alert-text";
import styles from "./alerts.module.css";

function When({ at }: { at: string }) {
  const tz = useDisplayTimeZone();
  return (
    <span className={styles.when}>
      <DateTime iso={at} mode="relative" />
      <span className="small muted">{formatDateTime(at, tz)}</span>
    </span>
  );
}

function Status({ delivery, onRetry, retrying }: { delivery: Delivery; onRetry: (d: Delivery) => void; retrying: boolean }) {
  // An attempt that failed and was followed by another is history: "Retrying" is said only of the latest.
  const superseded = delivery.status === "retrying" && !delivery.next_attempt_at;
  const status = superseded ? { text: "Failed, tried again", badge: "badge-neutral" } : DELIVERY_STATUS[delivery.status];
  return (
    <span className={styles.status}>
      <span className={`badge ${status.badge}`} data-testid="delivery-status">
        {status.text}
      </span>
      {/* Only a delivery still waiting has a next try (the route answers none for an attempt that was followed). */}
      {delivery.status === "retrying" && delivery.next_attempt_at && (
        <span className="small muted" data-testid="delivery-next">
          next try <DateTime iso={delivery.next_attempt_at} mode="relative" tense="future" />
        </span>
      )}
      {delivery.status === "failed" && delivery.retryable && (
        <button
          type="button"
          className="button button-small button-secondary"
          disabled={retrying}
          onClick={() => onRetry(delivery)}
          aria-label={`Retry the ${DELIVERY_TYPES[delivery.type].toLowerCase()} to ${delivery.destination_name} (attempt ${delivery.attempt})`}
          data-testid="delivery-retry"
        >
          {retrying ? "Retrying…" : "Retry"}
        </button>
      )}
    </span>
  );
}

function deliveryColumns(onRetry: (d: Delivery) => void, retryingId: string | null): TableColumn<Delivery>[] {
  return [
    { id: "at", label: "When", kind: "timestamp", value: (d) => d.at, cell: (d) => <When at={d.at} />, cardTitle: true },
    { id: "destination", label: "Destination", kind: "text", value: (d) => d.destination_name, rowHeader: true },
    { id: "type", label: "What", kind: "text", value: (d) => DELIVERY_TYPES[d.type] },
    { id: "attempt", label: "Attempt", kind: "integer", value: (d) => d.attempt, cell: (d) => <>{formatNumber(d.attempt)}</> },
    {
      id: "status",
      label: "Status",
      kind: "text",
      value: (d) => DELIVERY_STATUS[d.status].text,
      cell: (d) => <Status delivery={d} onRetry={onRetry} retrying={retryingId === d.id} />,
    },
    {
      id: "response",
      label: "Response",
      kind: "text",
      value: (d) => responseText(d),
      cell: (d) => <span data-testid="delivery-response">{responseText(d)}</span>,
    },
  ];
}

export function DeliveriesCard({ awaited, onSeen }: { awaited: ReadonlySet<string>; onSeen: (rows: readonly Delivery[]) => void }) {
  const deliveries = useDeliveries(awaited);
  const { retryDelivery } = useAlertWrites();
  const [status, setStatus] = useState("");
  const [error, setError] = useState<string | null>(null);
  const rows = deliveries.data;

  useEffect(() => {
    if (rows) onSeen(rows);
  }, [rows, onSeen]);

  async function retry(d: Delivery) {
    setError(null);
    setStatus("");
    try {
      await retryDelivery.mutateAsync(d.id);
      setStatus(`Sending the ${DELIVERY_TYPES[d.type].toLowerCase()} to ${d.destination_name} again.`);
    } catch (e) {
      setError(problemText(e, "delivery"));
    }
  }

  const columns = deliveryColumns((d) => void retry(d), retryDelivery.isPending ? (retryDelivery.variables ?? null) : null);
  const polling = deliveriesNeedPolling(rows, awaited);
  return (
    <Card
      title="Deliveries"
      level={3}
      testId="deliveries-card"
      description={`Every attempt to send an alert, a digest or a test, the latest ${DELIVERIES_SHOWN} first. A failed attempt is tried again after about 5 seconds, 1 minute, 10 minutes, 1 hour and 6 hours.`}
      actions={
        polling ? (
          <span className="small muted" data-testid="deliveries-polling">
            Updating every few seconds…
          </span>
        ) : undefined
      }
    >
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {deliveries.error ? (
        <p className="field-error" role="alert">
          {problemText(deliveries.error, "delivery")}
        </p>
      ) : !rows ? (
        <p className="small muted">Loading…</p>
      ) : (
        <DataTable
          rows={rows}
          columns={columns}
          caption="Deliveries, newest first"
          rowKey={(d, i) => `${d.id}-${i}`}
          testId="deliveries-table"
          rowTestId="delivery-row"
          empty={
            <p className="small muted" data-testid="deliveries-empty">
              Nothing sent yet. &ldquo;Send a test&rdquo; on a destination shows here within seconds.
            </p>
          }
        />
      )}
      <p className={`small ${styles.statusLine}`} role="status" aria-live="polite" data-testid="deliveries-status">
        {status}
      </p>
    </Card>
  );
}
