"use client";
// The workspace's alerts in the browser: the destinations, rules, deliveries and weekly digest read
// from /api/alerts/* through React Query (one key family, ["alerts", ...], so a write refreshes
// whatever it may have changed), the live preview of a rule being written, the digest's preview, and
// the writes (a rule changed in place, the digest sent now among them). Every
// failure is a DataApiError (lib/queries/api.ts) carrying the route's `param`, so a form shows it on
// that field. The deliveries are read again every few seconds while one of them is being retried or a
// test just sent has not shown yet; nothing else polls.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import type { RuleKind } from "@/lib/alerts/rules";
import { ACTIVITY_KEY } from "./activity";
import { getJson, sendJson } from "./api";

export type DestinationKind = "slack" | "webhook" | "email";
export type Destination = {
  id: string;
  kind: DestinationKind;
  name: string;
  /** The URL as it may be shown: the server masks all but enough to recognise it. */
  url_hint: string | null;
  /** An e-mail destination's address as it may be shown (`m…@example.com`); null for the others. */
  to_hint: string | null;
  status: "active" | "unconfirmed" | "unsubscribed" | "stopped";
  stopped_reason: string | null;
  /** Until when nothing is sent there (it timed out 5 times in a row), or null. */
  resting_until: string | null;
  created_at: string;
};
/**
 * The answer to a create: a webhook's signing secret comes with it, this once only; an e-mail
 * destination's says whether the mail server took its confirmation.
 */
export type CreatedDestination = Destination & { secret?: string; confirmation_sent?: boolean };
/** What a create sends: a URL for Slack and webhooks, one address for e-mail. */
export type NewDestination = { kind: "slack" | "webhook"; name: string; url: string } | { kind: "email"; name: string; to: string };

export type { RuleKind };
export type Rule = {
  id: string;
  kind: RuleKind;
  threshold: number | null;
  destination_id: string;
  cooldown_minutes: number;
  state: "ok" | "firing";
  last_checked_at: string | null;
  last_changed_at: string | null;
  /** When the dashboard next reads, on its own, what the rule is judged on (null while the workspace is not watched). */
  next_check_at: string | null;
  created_at: string;
};
/** What an edit may change; what is not sent stays. */
export type RuleChanges = { threshold?: number | null; destination_id?: string; cooldown_minutes?: number };
export type NewRule = { kind: RuleKind; threshold: number | null; destination_id: string; cooldown_minutes?: number };

/** `held_back`: drops past the threshold within normal variation (drop rules); absent from an older server. */
export type RulePreview = {
  days: number;
  fired: number;
  checks: number;
  held_back?: number;
  history_since: string | null;
  firings: Array<{ at: string; message: string }>;
};

export type DeliveryType = "alert.firing" | "alert.resolved" | "digest.weekly" | "test";
export type Delivery = {
  id: string;
  destination_id: string;
  destination_name: string;
  type: DeliveryType;
  attempt: number;
  status: "delivered" | "retrying" | "failed";
  response_status: number | null;
  error: string | null;
  at: string;
  next_attempt_at: string | null;
  retryable: boolean;
};

/** `share_id`: the share link the digest's links open (for recipients without the key), null for the dashboard's pages. */
export type Digest = { destination_id: string | null; share_id: string | null; next_at: string | null; time_zone: string };
/** The digest as "Send now" sends it: the latest full week, as its receivers read it and as an e-mail. */
export type DigestPreview = { subject: string; text: string; html: string; week: { from: string; to: string }; time_zone: string; sends_at: string | null };

export const ALERTS_KEY = ["alerts"] as const;
export const alertsKeys = {
  destinations: [...ALERTS_KEY, "destinations"] as const,
  rules: [...ALERTS_KEY, "rules"] as const,
  deliveries: (limit: number) => [...ALERTS_KEY, "deliveries", { limit }] as const,
  digest: [...ALERTS_KEY, "digest"] as const,
  digestPreview: [...ALERTS_KEY, "digest", "preview"] as const,
  preview: (ask: PreviewAsk) => [...ALERTS_KEY, "preview", ask] as const,
};

/** How many attempts the Settings table lists (the newest). */
export const DELIVERIES_SHOWN = 50;
/** How often the deliveries are read again while one is being retried or a test is on its way. */
export const DELIVERY_POLL_MS = 3_000;

const base = "/api/alerts";
const idPath = (kind: string, id: string) => `${base}/${kind}/${encodeURIComponent(id)}`;
const dataOf = async <T>(url: string, signal: AbortSignal) => (await getJson<{ data: T[] }>(url, { signal })).data;

export const useDestinations = () =>
  useQuery({ queryKey: alertsKeys.destinations, queryFn: ({ signal }) => dataOf<Destination>(`${base}/destinations`, signal) });
export const useRules = () => useQuery({ queryKey: alertsKeys.rules, queryFn: ({ signal }) => dataOf<Rule>(`${base}/rules`, signal) });
export const useDigest = () => useQuery({ queryKey: alertsKeys.digest, queryFn: ({ signal }) => getJson<Digest>(`${base}/digest`, { signal }) });

/** The digest's preview, read only once asked for (it reads a week of figures); kept a minute. */
export const useDigestPreview = (enabled: boolean) =>
  useQuery({
    queryKey: alertsKeys.digestPreview,
    queryFn: ({ signal }) => getJson<DigestPreview>(`${base}/digest/preview`, { signal }),
    enabled,
    staleTime: 60_000,
    retry: false,
  });

/** What the preview is asked about: the rule as the form has it (a cooldown changes how often it notifies). */
export type PreviewAsk = { kind: RuleKind; threshold: number | null; cooldown_minutes: number | null };

/** The preview's query string: rank_passed has no threshold, and an empty cooldown is the default, so neither is sent then. */
export function previewUrl(ask: PreviewAsk): string {
  const query = new URLSearchParams({ kind: ask.kind });
  if (ask.threshold !== null) query.set("threshold", String(ask.threshold));
  if (ask.cooldown_minutes !== null) query.set("cooldown_minutes", String(ask.cooldown_minutes));
  return `${base}/rules/preview?${query.toString()}`;
}

/** How often the rule would have fired; `enabled` false while the form has nothing to ask about. */
export function useRulePreview(ask: PreviewAsk, enabled: boolean) {
  return useQuery({
    queryKey: alertsKeys.preview(ask),
    queryFn: ({ signal }) => getJson<RulePreview>(previewUrl(ask), { signal }),
    enabled,
    // A preview is cheap to keep for the session of the form; history only grows hourly.
    staleTime: 60_000,
    retry: false,
  });
}

/** Whether the table should be read again soon: an attempt is being retried, or a sent test is not listed yet. */
export function deliveriesNeedPolling(rows: readonly Delivery[] | undefined, awaited: ReadonlySet<string>): boolean {
  if (!rows) return false;
  // One row per attempt, newest first, sharing the delivery's id: an earlier attempt keeps the status
  // it ended with ("retrying" once a later one was due), so only each delivery's latest attempt counts.
  const latest = new Map<string, Delivery>();
  for (const d of rows) if (!latest.has(d.id)) latest.set(d.id, d);
  if ([...latest.values()].some((d) => d.status === "retrying")) return true;
  if (awaited.size === 0) return false;
  const listed = new Set(rows.map((d) => d.id));
  return [...awaited].some((id) => !listed.has(id));
}

/**
 * The latest attempts, polled while `deliveriesNeedPolling`. `awaited` holds the ids of deliveries
 * this tab asked for (a test, a retry) that the table should show once they exist.
 */
export function useDeliveries(awaited: ReadonlySet<string>) {
  return useQuery({
    queryKey: alertsKeys.deliveries(DELIVERIES_SHOWN),
    queryFn: ({ signal }) => dataOf<Delivery>(`${base}/deliveries?limit=${DELIVERIES_SHOWN}`, signal),
    refetchInterval: (query) => (deliveriesNeedPolling(query.state.data, awaited) ? DELIVERY_POLL_MS : false),
  });
}

/** How long a sent test is waited for in the list before polling gives up on it. */
export const AWAIT_DELIVERY_MS = 120_000;

/** The ids of deliveries this tab is waiting to see listed, shared by the cards that send and the table. */
export function useAwaitedDeliveries() {
  const [awaited, setAwaited] = useState<ReadonlySet<string>>(() => new Set());
  const forget = useCallback((ids: ReadonlySet<string>) => {
    setAwaited((s) => {
      const left = [...s].filter((id) => !ids.has(id));
      return left.length === s.size ? s : new Set(left);
    });
  }, []);
  const add = useCallback(
    (id: string) => {
      setAwaited((s) => new Set([...s, id]));
      // A delivery that never shows (deleted with its destination meanwhile) must not keep the table polling.
      setTimeout(() => forget(new Set([id])), AWAIT_DELIVERY_MS);
    },
    [forget],
  );
  /** Forgets the ones now listed, so polling stops once they all show. */
  const seen = useCallback((listed: readonly Delivery[]) => forget(new Set(listed.map((d) => d.id))), [forget]);
  return { awaited, await: add, seen };
}

/** The writes. Each refreshes what it may have changed once it is done or has failed (someone else may have changed it). */
export function useAlertWrites() {
  const queryClient = useQueryClient();
  // The activity list is read again after every write: each change to a destination, a rule or the digest is a line of it.
  const refresh = (...keys: ReadonlyArray<readonly unknown[]>) =>
    Promise.all([...keys, ACTIVITY_KEY].map((queryKey) => queryClient.invalidateQueries({ queryKey })));

  // The answer holds a webhook's secret: the mutation cache lets it go as soon as nothing observes it
  // (the card resets it once it has taken the secret into its own state).
  const createDestination = useMutation({
    mutationFn: async (input: NewDestination) => (await sendJson<CreatedDestination>("POST", `${base}/destinations`, input))!,
    gcTime: 0,
    onSettled: () => refresh(alertsKeys.destinations),
  });
  // Deleting a destination deletes its rules and may turn the digest off: everything is read again.
  const deleteDestination = useMutation({
    mutationFn: (id: string) => sendJson<never>("DELETE", idPath("destinations", id)),
    onSettled: () => refresh(ALERTS_KEY),
  });
  const testDestination = useMutation({
    mutationFn: async (id: string) => (await sendJson<{ delivery_id: string | null }>("POST", `${idPath("destinations", id)}/test`))!,
    onSettled: () => refresh(alertsKeys.deliveries(DELIVERIES_SHOWN)),
  });
  // A rule is checked at once when added or given a new threshold, and may have notified: the deliveries too.
  const createRule = useMutation({
    mutationFn: async (input: NewRule) => (await sendJson<Rule>("POST", `${base}/rules`, input))!,
    onSettled: () => refresh(alertsKeys.rules, alertsKeys.deliveries(DELIVERIES_SHOWN)),
  });
  const updateRule = useMutation({
    mutationFn: async ({ id, changes }: { id: string; changes: RuleChanges }) => (await sendJson<Rule>("PATCH", idPath("rules", id), changes))!,
    onSuccess: (rule) => queryClient.setQueryData<Rule[]>(alertsKeys.rules, (rules) => rules?.map((r) => (r.id === rule.id ? rule : r))),
    onSettled: () => refresh(alertsKeys.rules, alertsKeys.deliveries(DELIVERIES_SHOWN)),
  });
  // Removing a rule from the list before the answer is safe: nothing else depends on it, and a
  // failure puts the list back as it was.
  const deleteRule = useMutation({
    mutationFn: (id: string) => sendJson<never>("DELETE", idPath("rules", id)),
    onMutate: async (id: string) => {
      await queryClient.cancelQueries({ queryKey: alertsKeys.rules });
      const before = queryClient.getQueryData<Rule[]>(alertsKeys.rules);
      if (before)
        queryClient.setQueryData<Rule[]>(
          alertsKeys.rules,
          before.filter((r) => r.id !== id),
        );
      return { before };
    },
    onError: (_error, _id, context) => {
      if (context?.before) queryClient.setQueryData(alertsKeys.rules, context.before);
    },
    onSettled: () => refresh(alertsKeys.rules),
  });
  const retryDelivery = useMutation({
    mutationFn: (id: string) => sendJson<unknown>("POST", `${idPath("deliveries", id)}/retry`),
    onSettled: () => refresh(alertsKeys.deliveries(DELIVERIES_SHOWN)),
  });
  const setDigest = useMutation({
    /**
     * `timeZone`: the zone whose Monday 09:00 the digest goes at (the member's who sets it up);
     * `shareId`: the share link its links open, null for the dashboard's pages, left out as it is.
     */
    mutationFn: async ({ destinationId, shareId, timeZone }: { destinationId: string | null; shareId?: string | null; timeZone: string }) =>
      (await sendJson<Digest>("PUT", `${base}/digest`, {
        destination_id: destinationId,
        ...(shareId !== undefined ? { share_id: shareId } : {}),
        time_zone: timeZone,
      }))!,
    onSuccess: (digest) => queryClient.setQueryData(alertsKeys.digest, digest),
    onSettled: () => refresh(alertsKeys.digest),
  });
  const sendDigest = useMutation({
    mutationFn: async () => (await sendJson<{ delivery_id: string | null; week: { from: string; to: string } }>("POST", `${base}/digest/send`))!,
    onSettled: () => refresh(alertsKeys.deliveries(DELIVERIES_SHOWN)),
  });
  return { createDestination, deleteDestination, testDestination, createRule, updateRule, deleteRule, retryDelivery, setDigest, sendDigest };
}
