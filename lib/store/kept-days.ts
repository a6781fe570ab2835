// Kept days: the insights' figures of closed days, per workspace, so a range read once answers its
// closed days from the store after a restart and on every instance, and asks the upstream only for
// the days it never kept, today, and the days due for a check (lib/insights/kept.ts decides which).
// A day is named by its instants, its first and its end (which its zone and date decide; two zones
// whose midnights fall at the same instants share it), under a `figure`: a dimension of a listing
// (`vd2`, visitors by source; `cd2`, by country and city; `md2`, mentions by platform and competitor;
// `qd2`, by question) or one count of a span (`vc:chatgpt:converted`). Each row also holds the counts
// a late change upstream would move (`checks`), when it was read (`kept_at`) and when the upstream
// last confirmed it (`checked_at`). The store keeps what it is given (the figures are judged by the
// insights, which made them) and never reads or writes a row without its workspace.
import "server-only";
import { sql, type Kysely } from "kysely";
import { isTimeZoneName } from "@/lib/data-api/params";
import { StoreInputError } from "./errors";
import type { StoreTables, WorkspaceId } from "./schema";

/** A day (or counted span) by its instants: [startMs, endMs). */
export type KeptSpan = { startMs: number; endMs: number };

export type KeptDay = KeptSpan & {
  data: unknown;
  /** The counts the recheck compares (e.g. `{rows: 12, converted: 3}`). */
  checks: Record<string, number>;
  keptAt: number;
  checkedAt: number;
};

/**
 * A figure to keep. `readAt`, for a day not yet over (today's figures so far), is when it was read:
 * kept and checked as of then, so a reader can tell how old it is; without it, as of the write.
 */
export type KeptDayWrite = KeptSpan & { figure: string; data: unknown; checks: Record<string, number>; readAt?: number };

export type KeptDaysDeps = { db: Kysely<StoreTables>; now: () => number };

export type KeptDays = ReturnType<typeof keptDaysContext>;

/** The key a span is answered under: `${startMs}-${endMs}`. */
export const spanKey = (span: KeptSpan) => `${span.startMs}-${span.endMs}`;

/** Rows per statement: far under SQLite's and PostgreSQL's bound on a statement's parameters. */
const BATCH = 250;

function checkFigure(figure: string): void {
  if (!/^[a-z][a-z0-9_:.*-]{0,63}$/.test(figure)) throw new StoreInputError("figure must be 1-64 lower-case letters, digits or _ : . * -", "figure");
}

function checkSpan(span: KeptSpan): void {
  if (!Number.isSafeInteger(span.startMs) || !Number.isSafeInteger(span.endMs) || span.startMs < 0 || span.endMs <= span.startMs) {
    throw new StoreInputError("a kept day must be a span of epoch milliseconds with its end after its start", "span");
  }
}

function parseChecks(text: string): Record<string, number> {
  const parsed = JSON.parse(text) as unknown;
  if (!parsed || typeof parsed !== "object") return {};
  return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, number] => typeof e[1] === "number"));
}

export function keptDaysContext(deps: KeptDaysDeps) {
  const { db } = deps;

  return {
    /**
     * The kept rows of each of `figures` for `spans` (those kept), by figure and then by `spanKey`:
     * one query, however many figures.
     */
    async read(workspace: WorkspaceId, figures: readonly string[], spans: readonly KeptSpan[]): Promise<Map<string, Map<string, KeptDay>>> {
      figures.forEach(checkFigure);
      const found = new Map<string, Map<string, KeptDay>>(figures.map((f) => [f, new Map()]));
      if (spans.length === 0 || figures.length === 0) return found;
      spans.forEach(checkSpan);
      const wanted = new Set(spans.map(spanKey));
      const starts = spans.map((s) => s.startMs);
      const rows = await db
        .selectFrom("kept_days")
        .select(["figure", "start_ms", "end_ms", "data", "checks", "kept_at", "checked_at"])
        .where("workspace_id", "=", workspace)
        .where("figure", "in", [...new Set(figures)])
        .where("start_ms", ">=", Math.min(...starts))
        .where("start_ms", "<=", Math.max(...starts))
        .execute();
      for (const r of rows) {
        const span = { startMs: Number(r.start_ms), endMs: Number(r.end_ms) };
        const key = spanKey(span);
        if (!wanted.has(key)) continue;
        found.get(r.figure)?.set(key, {
          ...span,
          data: JSON.parse(r.data) as unknown,
          checks: parseChecks(r.checks),
          keptAt: Number(r.kept_at),
          checkedAt: Number(r.checked_at),
        });
      }
      return found;
    },

    /**
     * Keeps `days` (a listing's every figure and day, or counts), in one transaction: a day kept
     * before is replaced (read again after a check found it changed), confirmed as of now.
     */
    async keep(workspace: WorkspaceId, days: readonly KeptDayWrite[]): Promise<void> {
      if (days.length === 0) return;
      for (const d of days) {
        checkFigure(d.figure);
        checkSpan(d);
        if (d.readAt !== undefined && (!Number.isSafeInteger(d.readAt) || d.readAt < 0))
          throw new StoreInputError("readAt must be epoch milliseconds", "readAt");
      }
      const at = deps.now();
      const values = days.map((d) => ({
        workspace_id: workspace,
        figure: d.figure,
        start_ms: d.startMs,
        end_ms: d.endMs,
        data: JSON.stringify(d.data ?? null),
        checks: JSON.stringify(d.checks),
        kept_at: d.readAt ?? at,
        checked_at: d.readAt ?? at,
      }));
      await db.transaction().execute(async (tx) => {
        for (let i = 0; i < values.length; i += BATCH) {
          await tx
            .insertInto("kept_days")
            .values(values.slice(i, i + BATCH))
            .onConflict((oc) =>
              oc.columns(["workspace_id", "figure", "start_ms", "end_ms"]).doUpdateSet((eb) => ({
                data: eb.ref("excluded.data"),
                checks: eb.ref("excluded.checks"),
                kept_at: eb.ref("excluded.kept_at"),
                checked_at: eb.ref("excluded.checked_at"),
              })),
            )
            .execute();
        }
      });
    },

    /** Marks the rows of `figures` for `spans` as confirmed by the upstream now (a recheck found no change). */
    async confirm(workspace: WorkspaceId, figures: readonly string[], spans: readonly KeptSpan[]): Promise<void> {
      if (figures.length === 0 || spans.length === 0) return;
      figures.forEach(checkFigure);
      spans.forEach(checkSpan);
      const at = deps.now();
      for (let i = 0; i < spans.length; i += BATCH) {
        const some = spans.slice(i, i + BATCH);
        await db
          .updateTable("kept_days")
          .set({ checked_at: at })
          .where("workspace_id", "=", workspace)
          .where("figure", "in", [...figures])
          .where((eb) => eb.or(some.map((s) => eb.and([eb("start_ms", "=", s.startMs), eb("end_ms", "=", s.endMs)]))))
          .execute();
      }
    },

    /** Notes that the workspace's members read the insights in `tz` now. */
    async noteZone(workspace: WorkspaceId, tz: string): Promise<void> {
      if (!isTimeZoneName(tz)) throw new StoreInputError("tz must be an IANA time zone name", "tz");
      const at = deps.now();
      await db
        .insertInto("kept_zones")
        .values({ workspace_id: workspace, tz, read_at: at })
        .onConflict((oc) => oc.columns(["workspace_id", "tz"]).doUpdateSet({ read_at: at }))
        .execute();
    },

    /** The zones the workspace's members read the insights in since `since`, the latest first, at most `max`. */
    async zones(workspace: WorkspaceId, since: number, max: number): Promise<string[]> {
      const rows = await db
        .selectFrom("kept_zones")
        .select("tz")
        .where("workspace_id", "=", workspace)
        .where("read_at", ">=", since)
        .orderBy("read_at", "desc")
        .orderBy("tz")
        .limit(max)
        .execute();
      return rows.map((r) => r.tz);
    },

    /** How many rows `workspace` keeps and their size in bytes (the figures' and checks' JSON). */
    async size(workspace: WorkspaceId): Promise<{ days: number; bytes: number }> {
      const { rows } = await sql<{ n: number | string; bytes: number | string | null }>`select count(*) as n,
        sum(length(data) + length(checks) + length(figure) + 40) as bytes from kept_days where workspace_id = ${workspace}`.execute(db);
      return { days: Number(rows[0]?.n ?? 0), bytes: Number(rows[0]?.bytes ?? 0) };
    },
  };
}
