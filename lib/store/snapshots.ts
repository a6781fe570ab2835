// History: what the Data API forgets, kept per workspace. A score or ranking snapshot is recorded
// once per upstream `updated_at` (`at`): recording the same one again is a no-op, so every instance
// and every reader may record what it reads. Daily figures are one JSON document per workspace, kind,
// time zone and calendar date. Nothing is made up for a time not seen: a range read returns the
// snapshots there are, and gaps stay gaps. The first snapshot sets the workspace's `history_since`.
import "server-only";
import type { Kysely, Transaction } from "kysely";
import { calendarDayNumber, isTimeZoneName } from "@/lib/data-api/params";
import { StoreInputError } from "./errors";
import type { StoreTables, WorkspaceId } from "./schema";

export type ScoreSnapshot = {
  /** The upstream's `updated_at` (epoch ms). */
  at: number;
  /** When this dashboard recorded it. */
  recordedAt: number;
  score: number | null;
  direction: string | null;
  change: number | null;
  breakdown: { visibility: number | null; sentiment: number | null; authority: number | null; coverage: number | null };
};

export type RankingEntry = { rank: number | null; name: string; score: number | null; change: number | null; is_workspace: boolean | null };

export type RankingSnapshot = { at: number; recordedAt: number; entries: RankingEntry[] };

export type DailyFigures = { date: string; tz: string; kind: string; data: unknown; recordedAt: number };

/** An inclusive range of instants (epoch ms). */
export type InstantRange = { from: number; to: number };

export type SnapshotsDeps = { db: Kysely<StoreTables>; now: () => number };

export type Snapshots = ReturnType<typeof snapshotsContext>;

function checkInstant(value: number, param: string): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new StoreInputError(`${param} must be an instant in epoch milliseconds`, param);
}

function checkRange(range: InstantRange): void {
  checkInstant(range.from, "from");
  checkInstant(range.to, "to");
}

function checkDay(date: string, param: string): void {
  if (calendarDayNumber(date) === null) throw new StoreInputError(`${param} must be a calendar date YYYY-MM-DD`, param);
}

function checkZone(tz: string): void {
  if (!isTimeZoneName(tz)) throw new StoreInputError("tz must be an IANA time zone name", "tz");
}

function checkKind(kind: string): void {
  if (!/^[a-z][a-z0-9_:.-]{0,63}$/.test(kind)) throw new StoreInputError("kind must be 1-64 lower-case letters, digits or _ : . -", "kind");
}

/** A finite number, else null (a value the upstream did not send readably). */
const num = (v: number | null | undefined): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** Moves the workspace's `history_since` back to `at` if that is earlier (or it had none). */
async function noteHistory(tx: Transaction<StoreTables>, workspace: WorkspaceId, at: number): Promise<void> {
  await tx
    .updateTable("workspaces")
    .set({ history_since: at })
    .where("id", "=", workspace)
    .where((eb) => eb.or([eb("history_since", "is", null), eb("history_since", ">", at)]))
    .execute();
}

export function snapshotsContext(deps: SnapshotsDeps) {
  const { db } = deps;

  return {
    /** Records the score read at `at`; false when that `at` was already recorded for `workspace`. */
    async recordScore(workspace: WorkspaceId, snapshot: Omit<ScoreSnapshot, "recordedAt">): Promise<boolean> {
      checkInstant(snapshot.at, "at");
      return db.transaction().execute(async (tx) => {
        const inserted = await tx
          .insertInto("score_snapshots")
          .values({
            workspace_id: workspace,
            at: snapshot.at,
            recorded_at: deps.now(),
            score: num(snapshot.score),
            direction: snapshot.direction ? snapshot.direction.slice(0, 32) : null,
            change: num(snapshot.change),
            visibility: num(snapshot.breakdown.visibility),
            sentiment: num(snapshot.breakdown.sentiment),
            authority: num(snapshot.breakdown.authority),
            coverage: num(snapshot.breakdown.coverage),
          })
          .onConflict((oc) => oc.columns(["workspace_id", "at"]).doNothing())
          .returning("at")
          .executeTakeFirst();
        if (inserted) await noteHistory(tx, workspace, snapshot.at);
        return inserted !== undefined;
      });
    },

    /** The score snapshots of `workspace` with `at` in the range (inclusive), oldest first. */
    async scoreHistory(workspace: WorkspaceId, range: InstantRange): Promise<ScoreSnapshot[]> {
      checkRange(range);
      const rows = await db
        .selectFrom("score_snapshots")
        .selectAll()
        .where("workspace_id", "=", workspace)
        .where("at", ">=", range.from)
        .where("at", "<=", range.to)
        .orderBy("at")
        .execute();
      return rows.map((r) => ({
        at: r.at,
        recordedAt: r.recorded_at,
        score: r.score,
        direction: r.direction,
        change: r.change,
        breakdown: { visibility: r.visibility, sentiment: r.sentiment, authority: r.authority, coverage: r.coverage },
      }));
    },

    /** The `at` of the latest score snapshot of `workspace` (what a reader compares `updated_at` with). */
    async latestScoreAt(workspace: WorkspaceId): Promise<number | null> {
      const row = await db
        .selectFrom("score_snapshots")
        .select((eb) => eb.fn.max("at").as("at"))
        .where("workspace_id", "=", workspace)
        .executeTakeFirst();
      return row?.at ?? null;
    },

    /** Records the ranking read at `at`; false when that `at` was already recorded for `workspace`. */
    async recordRanking(workspace: WorkspaceId, snapshot: Omit<RankingSnapshot, "recordedAt">): Promise<boolean> {
      checkInstant(snapshot.at, "at");
      return db.transaction().execute(async (tx) => {
        const inserted = await tx
          .insertInto("ranking_snapshots")
          .values({ workspace_id: workspace, at: snapshot.at, recorded_at: deps.now(), entries: JSON.stringify(snapshot.entries) })
          .onConflict((oc) => oc.columns(["workspace_id", "at"]).doNothing())
          .returning("at")
          .executeTakeFirst();
        if (inserted) await noteHistory(tx, workspace, snapshot.at);
        return inserted !== undefined;
      });
    },

    /** The ranking snapshots of `workspace` with `at` in the range (inclusive), oldest first. */
    async rankingHistory(workspace: WorkspaceId, range: InstantRange): Promise<RankingSnapshot[]> {
      checkRange(range);
      const rows = await db
        .selectFrom("ranking_snapshots")
        .selectAll()
        .where("workspace_id", "=", workspace)
        .where("at", ">=", range.from)
        .where("at", "<=", range.to)
        .orderBy("at")
        .execute();
      return rows.map((r) => ({ at: r.at, recordedAt: r.recorded_at, entries: JSON.parse(r.entries) as RankingEntry[] }));
    },

    /** The `at` of the latest ranking snapshot of `workspace`, or null. */
    async latestRankingAt(workspace: WorkspaceId): Promise<number | null> {
      const row = await db
        .selectFrom("ranking_snapshots")
        .select((eb) => eb.fn.max("at").as("at"))
        .where("workspace_id", "=", workspace)
        .executeTakeFirst();
      return row?.at ?? null;
    },

    /**
     * Keeps the figures of one calendar day (`date` in `tz`) of one `kind`. A day already kept is left
     * as it is (false), unless `replace`: figures of a closed day taken later may have lost rows to
     * the upstream's retention, so the first complete reading wins by default.
     */
    async putDailyFigures(
      workspace: WorkspaceId,
      figures: { kind: string; date: string; tz: string; data: unknown },
      options: { replace?: boolean } = {},
    ): Promise<boolean> {
      checkKind(figures.kind);
      checkDay(figures.date, "date");
      checkZone(figures.tz);
      const values = {
        workspace_id: workspace,
        kind: figures.kind,
        date: figures.date,
        tz: figures.tz,
        data: JSON.stringify(figures.data ?? null),
        recorded_at: deps.now(),
      };
      const written = await db
        .insertInto("daily_figures")
        .values(values)
        .onConflict((oc) => {
          const target = oc.columns(["workspace_id", "kind", "tz", "date"]);
          return options.replace ? target.doUpdateSet({ data: values.data, recorded_at: values.recorded_at }) : target.doNothing();
        })
        .returning("date")
        .executeTakeFirst();
      return written !== undefined;
    },

    /** The kept days of `kind` in `tz` from `from` to `to` (calendar dates, inclusive), oldest first. */
    async dailyFigures(workspace: WorkspaceId, query: { kind: string; tz: string; from: string; to: string }): Promise<DailyFigures[]> {
      checkKind(query.kind);
      checkZone(query.tz);
      checkDay(query.from, "from");
      checkDay(query.to, "to");
      const rows = await db
        .selectFrom("daily_figures")
        .select(["date", "tz", "kind", "data", "recorded_at"])
        .where("workspace_id", "=", workspace)
        .where("kind", "=", query.kind)
        .where("tz", "=", query.tz)
        .where("date", ">=", query.from)
        .where("date", "<=", query.to)
        .orderBy("date")
        .execute();
      return rows.map((r) => ({ date: r.date, tz: r.tz, kind: r.kind, data: JSON.parse(r.data) as unknown, recordedAt: r.recorded_at }));
    },
  };
}
