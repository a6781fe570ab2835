// Every value the store keeps sealed under the session secret (secrets.ts), in one registry, and the
// one way to seal and open them. A rotation of SESSION_SECRET must reach all of them, or removing
// SESSION_SECRET_PREVIOUS afterwards makes the ones it missed unreadable for good; so a column is
// sealed through here or not at all, and registering it (one line in SEALED) is what enrols it in:
// - resealing at start-up (in the background: nothing waits for it, since a read reseals what it
//   needs itself): `sweep()` pages through every registered column and seals again under the
//   current secret whatever still needs the previous one (a compare-and-set on the old ciphertext, so
//   instances sweeping together, or a row changed meanwhile, never lose or resurrect a value);
// - resealing on read: `open()` writes back, sealed under the current secret, a value it opened with
//   the previous one (the same compare-and-set);
// - health: `counts()` says how many values still need the previous secret and how many no
//   configured secret opens (/api/health: store.sealed_under_previous, store.sealed_unreadable), as
//   the last sweep found them.
// A value no configured secret opens is left exactly as it is and counted: during a rolling restart
// an instance of the older rollout may lack the secret the newer ones sealed under, and the value is
// fine for them. `open()` throws SealedUnreadableError for it, which callers treat as "wait", never
// as a reason to pause watching or to fail a delivery for good.
// A sealed column is text named `…_sealed`, bound (through its associated data) to its row's key: the
// types below refuse any other registration, and sealed.test.ts fails when the schema has a
// `…_sealed` column this registry does not name.
import "server-only";
import { sql, type Kysely } from "kysely";
import { errorBrand } from "@/lib/error-brand";
import type { StoreTables } from "./schema";
import { openSecret, sealSecret, type SealingSecrets } from "./secrets";

type Table = keyof StoreTables;
/** The columns of `T` that may hold a sealed value: text (or null), named `…_sealed`. */
type SealedColumnName<T extends Table> = {
  [C in keyof StoreTables[T]]: C extends `${string}_sealed` ? (StoreTables[T][C] extends string | null ? C : never) : never;
}[keyof StoreTables[T]] &
  string;
/** The columns of `T` that can name its row: text, never null (its primary key). */
type RowKeyName<T extends Table> = { [C in keyof StoreTables[T]]: StoreTables[T][C] extends string ? C : never }[keyof StoreTables[T]] & string;

export type SealedColumn = {
  readonly table: Table;
  readonly column: string;
  /** The column naming the row (its primary key): the associated data binds the value to it. */
  readonly rowKey: string;
  /** What the value is sealed with besides the secret, so a copy moved to another row stays shut. */
  readonly aad: (rowKey: string) => string;
  /** What the log calls these values. */
  readonly label: string;
};

function sealedColumn<T extends Table>(
  table: T,
  column: SealedColumnName<T>,
  rowKey: RowKeyName<T>,
  label: string,
  aad: (rowKey: string) => string,
): SealedColumn {
  return { table, column, rowKey, aad, label };
}

/**
 * Every sealed column of the store. The associated data is part of what was sealed: changing one
 * makes every value already kept in that column unreadable.
 */
export const SEALED = {
  watchKey: sealedColumn("workspaces", "watch_key_sealed", "id", "watched keys", (id) => `workspace:${id}:watch-key`),
  destinationUrl: sealedColumn("alert_destinations", "url_sealed", "id", "destination URLs", (id) => `alert-destination-url:${id}`),
  destinationSecret: sealedColumn("alert_destinations", "secret_sealed", "id", "destination signing secrets", (id) => `alert-destination-secret:${id}`),
  shareToken: sealedColumn("shares", "token_sealed", "id", "share link tokens", (id) => `share-token:${id}`),
} as const satisfies Record<string, SealedColumn>;

export type SealedName = keyof typeof SEALED;

const UNREADABLE = "sealed_unreadable";

const unreadableBrand = errorBrand<SealedUnreadableError>("SealedUnreadableError");

/**
 * A sealed value that no configured secret opens (sealed under a secret this instance lacks, or
 * damaged). Known by its brand (lib/error-brand.ts), not its class: the store's modules may be
 * bundled more than once.
 */
export class SealedUnreadableError extends Error {
  readonly code = UNREADABLE;
  constructor(
    readonly column: SealedColumn,
    readonly rowKey: string,
  ) {
    super(
      `${column.table}.${column.column} of ${rowKey} cannot be opened by this instance: it was sealed under a secret that is neither its SESSION_SECRET nor its SESSION_SECRET_PREVIOUS; it is left as it is`,
    );
    this.name = "SealedUnreadableError";
    unreadableBrand.mark(this);
  }
}

export const isSealedUnreadable = unreadableBrand.is;

export type SealedCounts = {
  /** Values only SESSION_SECRET_PREVIOUS opens (0 once every value was sealed again). */
  underPrevious: number;
  /** Values no configured secret opens. */
  unreadable: number;
};

export type SweepReport = SealedCounts & {
  /** Values sealed again under the current secret by this sweep. */
  resealed: number;
  /** Per registered column (by its name in SEALED), what the sweep found. */
  columns: Record<SealedName, SealedCounts & { resealed: number; values: number }>;
};

/** "2 watched keys, 1 destination URLs": the columns where a sweep found `what`, for the log. */
export function describeColumns(report: SweepReport, what: "resealed" | "unreadable" | "underPrevious"): string {
  return (Object.entries(report.columns) as [SealedName, SweepReport["columns"][SealedName]][])
    .filter(([, found]) => found[what] > 0)
    .map(([name, found]) => `${found[what]} ${SEALED[name].label}`)
    .join(", ");
}

export type SealedValuesDeps = {
  db: Kysely<StoreTables>;
  secrets: () => SealingSecrets;
  now: () => number;
  log?: (line: string) => void;
  /** Rows read per query while sweeping (bounded memory and short statements on a large store). */
  batchSize?: number;
  /** How long `counts()` answers from the last sweep before sweeping again (in the background). */
  countsTtlMs?: number;
};

export type SealedValues = ReturnType<typeof sealedValuesContext>;

const DEFAULT_BATCH = 200;
const DEFAULT_COUNTS_TTL_MS = 60_000;
/** Times a value changed under a sweep is read again before the sweep leaves it to the next one. */
const SETTLE_TRIES = 3;

export function sealedValuesContext(deps: SealedValuesDeps) {
  const { db } = deps;
  const log = deps.log ?? ((line: string) => console.warn(line));
  const batchSize = deps.batchSize ?? DEFAULT_BATCH;
  const countsTtlMs = deps.countsTtlMs ?? DEFAULT_COUNTS_TTL_MS;
  let last: { at: number; counts: SealedCounts } | undefined;
  let sweeping: Promise<SweepReport> | undefined;

  /** Writes `next` only if the row still holds `expected`: a concurrent change or another sweep wins. */
  async function compareAndSet(column: SealedColumn, rowKey: string, expected: string, next: string): Promise<boolean> {
    const result =
      await sql`update ${sql.table(column.table)} set ${sql.ref(column.column)} = ${next} where ${sql.ref(column.rowKey)} = ${rowKey} and ${sql.ref(column.column)} = ${expected}`.execute(
        db,
      );
    return (result.numAffectedRows ?? 0n) > 0n;
  }

  async function readOne(column: SealedColumn, rowKey: string): Promise<string | null> {
    const { rows } = await sql<{
      sealed: string | null;
    }>`select ${sql.ref(column.column)} as sealed from ${sql.table(column.table)} where ${sql.ref(column.rowKey)} = ${rowKey}`.execute(db);
    return rows[0]?.sealed ?? null;
  }

  /** Where a value stands after the sweep looked at it (and sealed it again when it could). */
  async function settle(
    secrets: SealingSecrets,
    column: SealedColumn,
    rowKey: string,
    sealed: string,
  ): Promise<"current" | "resealed" | "previous" | "unreadable" | "gone"> {
    let text = sealed;
    for (let tries = 0; tries < SETTLE_TRIES; tries++) {
      const opened = openSecret(secrets, column.aad(rowKey), text);
      if (!opened) return "unreadable";
      if (!opened.underPrevious) return "current";
      if (await compareAndSet(column, rowKey, text, sealSecret(secrets, column.aad(rowKey), opened.value))) return "resealed";
      // Changed since it was read (another instance sealed it again, or it was replaced or deleted).
      const now = await readOne(column, rowKey);
      if (now === null) return "gone";
      text = now;
    }
    return "previous";
  }

  async function sweepOnce(): Promise<SweepReport> {
    const secrets = deps.secrets();
    const columns = {} as SweepReport["columns"];
    for (const [name, column] of Object.entries(SEALED) as [SealedName, SealedColumn][]) {
      const found = { underPrevious: 0, unreadable: 0, resealed: 0, values: 0 };
      // Keyset pages in row-key order: bounded reads, and instances sweeping together write the
      // rows in the same order.
      let after: string | undefined;
      for (;;) {
        const { rows } = await sql<{
          row_key: string;
          sealed: string;
        }>`select ${sql.ref(column.rowKey)} as row_key, ${sql.ref(column.column)} as sealed from ${sql.table(column.table)} where ${sql.ref(column.column)} is not null${
          after === undefined ? sql`` : sql` and ${sql.ref(column.rowKey)} > ${after}`
        } order by ${sql.ref(column.rowKey)} limit ${batchSize}`.execute(db);
        for (const row of rows) {
          const state = await settle(secrets, column, row.row_key, row.sealed);
          if (state === "gone") continue;
          found.values++;
          if (state === "resealed") found.resealed++;
          else if (state === "previous") found.underPrevious++;
          else if (state === "unreadable") found.unreadable++;
        }
        if (rows.length < batchSize) break;
        after = rows[rows.length - 1]!.row_key;
      }
      columns[name] = found;
    }
    const all = Object.values(columns);
    const counts = { underPrevious: all.reduce((n, c) => n + c.underPrevious, 0), unreadable: all.reduce((n, c) => n + c.unreadable, 0) };
    last = { at: deps.now(), counts };
    return { ...counts, resealed: all.reduce((n, c) => n + c.resealed, 0), columns };
  }

  /** One sweep at a time per store: a sweep asked for while one runs gets that one's report. */
  function sweep(): Promise<SweepReport> {
    sweeping ??= sweepOnce().finally(() => {
      sweeping = undefined;
    });
    return sweeping;
  }

  return {
    /** `value` sealed under the current secret for `column` of the row `rowKey`. */
    seal(column: SealedColumn, rowKey: string, value: string): string {
      return sealSecret(deps.secrets(), column.aad(rowKey), value);
    },

    /**
     * The value `sealed` (as read from `column` of the row `rowKey`), opened. One opened with the
     * previous secret is written back sealed under the current one, if the row still holds what was
     * read. Throws SealedUnreadableError when no configured secret opens it (the row is left as is).
     */
    async open(column: SealedColumn, rowKey: string, sealed: string): Promise<string> {
      const secrets = deps.secrets();
      const opened = openSecret(secrets, column.aad(rowKey), sealed);
      if (!opened) throw new SealedUnreadableError(column, rowKey);
      if (opened.underPrevious) {
        try {
          if ((await compareAndSet(column, rowKey, sealed, sealSecret(secrets, column.aad(rowKey), opened.value))) && last && last.counts.underPrevious > 0) {
            last = { ...last, counts: { ...last.counts, underPrevious: last.counts.underPrevious - 1 } };
          }
        } catch (error) {
          // The value was read: what needed it goes on, and the next read or sweep seals it again.
          log(
            `[store] could not seal ${column.table}.${column.column} of ${rowKey} again under SESSION_SECRET: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
      return opened.value;
    },

    /**
     * `sealed`, as read from `column` of the row `fromKey`, sealed for the row `toKey` under the
     * current secret: a value moving with its data to another row (two workspaces merged). Writes
     * nothing (the caller's transaction does, and holds the rows this would otherwise write back).
     * Throws SealedUnreadableError when no configured secret opens it.
     */
    moved(column: SealedColumn, fromKey: string, toKey: string, sealed: string): string {
      const secrets = deps.secrets();
      const opened = openSecret(secrets, column.aad(fromKey), sealed);
      if (!opened) throw new SealedUnreadableError(column, fromKey);
      return sealSecret(secrets, column.aad(toKey), opened.value);
    },

    sweep,

    /**
     * How many values still need the previous secret, and how many none opens, as the last sweep
     * found them (adjusted by what reads sealed again since); undefined before a sweep has finished.
     * A count older than its lifetime, or none at all, starts a sweep in the background: another
     * instance may have sealed or written values since, and a health check must not wait for it.
     */
    counts(): SealedCounts | undefined {
      if (!last || deps.now() - last.at >= countsTtlMs)
        void sweep().catch((error: unknown) => log(`[store] counting the sealed values failed: ${error instanceof Error ? error.message : String(error)}`));
      return last && { ...last.counts };
    },
  };
}
