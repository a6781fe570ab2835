// The sandbox's clock: the instant the AI Positioning Score and the ranking are read at. It starts at
// the `now` the data is dated relative to and runs on with the wall clock (the `clock` option, real
// time by default); the /sandbox/clock control sets it or moves it while it keeps running. The
// visitor and mention rows, and the rate-limit windows, do not follow it (sandbox/README.md says why).
import { DATE_FORMS, instantOf } from "./contract";
import { intervalOf, SCORE_INTERVAL_MS } from "./intelligence";

/** The instants a 4-digit ISO year can name, from the epoch on: the clock stays inside them. */
const MIN_MS = 0;
const MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** A move of the clock, as the control's body gives it: exactly one field. */
export type ClockMove = { now: number } | { advance_ms: number } | { reset: true };

export type ClockJson = {
  /** The clock's instant. */
  now: string;
  /** The start of the score's current interval: the `updated_at` that /intelligence/score answers. */
  score_updated_at: string;
  /** When the score is next recomputed. */
  next_update_at: string;
  /** The instant the visitor and mention rows are dated relative to; moving the clock leaves it. */
  rows_dated_at: string;
};

const MOVE_FIELDS = ["now", "advance_ms", "reset"] as const;

export type ClockMoveResult = { ok: true; move: ClockMove } | { ok: false; param: string; message: string };

/** Reads the control's JSON body: `{now: ISO}`, `{advance_ms: integer}` (negative moves back) or `{reset: true}`. */
export function parseClockMove(body: unknown): ClockMoveResult {
  const fail = (param: string, message: string): ClockMoveResult => ({ ok: false, param, message });
  if (!body || typeof body !== "object" || Array.isArray(body))
    return fail("body", 'The body must be a JSON object: {"now": ISO}, {"advance_ms": n} or {"reset": true}');
  const fields = Object.keys(body);
  const unknown = fields.find((f) => !(MOVE_FIELDS as readonly string[]).includes(f));
  if (unknown !== undefined) return fail(unknown, `Unknown field ${unknown}; the clock takes one of: ${MOVE_FIELDS.join(", ")}`);
  if (fields.length !== 1) return fail("body", `Give exactly one of: ${MOVE_FIELDS.join(", ")}`);
  const b = body as Record<string, unknown>;
  if ("now" in b) {
    const ms = typeof b.now === "string" ? instantOf(b.now) : null;
    if (ms === null) return fail("now", `now must be ${DATE_FORMS}`);
    if (ms < MIN_MS || ms > MAX_MS) return fail("now", "now must be from 1970-01-01 to 9999-12-31");
    return { ok: true, move: { now: ms } };
  }
  if ("advance_ms" in b) {
    if (typeof b.advance_ms !== "number" || !Number.isSafeInteger(b.advance_ms))
      return fail("advance_ms", "advance_ms must be a whole number of milliseconds (negative moves the clock back)");
    return { ok: true, move: { advance_ms: b.advance_ms } };
  }
  if (b.reset !== true) return fail("reset", "reset must be true");
  return { ok: true, move: { reset: true } };
}

export class SandboxClock {
  /** The clock reads wall() + offset. */
  private offset: number;
  private readonly initialOffset: number;

  constructor(
    private readonly wall: () => number,
    private readonly rowsDatedAt: number,
  ) {
    this.initialOffset = rowsDatedAt - wall();
    this.offset = this.initialOffset;
  }

  now(): number {
    return this.wall() + this.offset;
  }

  /**
   * Applies a move: to an instant, by an amount, or back to where it would be had it never been moved.
   * Returns the param to name when the move would leave the years 1970-9999.
   */
  move(move: ClockMove): { ok: true } | { ok: false; param: string; message: string } {
    if ("reset" in move) {
      this.offset = this.initialOffset;
      return { ok: true };
    }
    const wall = this.wall();
    const target = "now" in move ? move.now : wall + this.offset + move.advance_ms;
    if (target < MIN_MS || target > MAX_MS) {
      return { ok: false, param: "now" in move ? "now" : "advance_ms", message: "The clock must stay from 1970-01-01 to 9999-12-31" };
    }
    this.offset = target - wall;
    return { ok: true };
  }

  json(): ClockJson {
    const now = this.now();
    const interval = intervalOf(now);
    return {
      now: new Date(now).toISOString(),
      score_updated_at: new Date(interval * SCORE_INTERVAL_MS).toISOString(),
      next_update_at: new Date((interval + 1) * SCORE_INTERVAL_MS).toISOString(),
      rows_dated_at: new Date(this.rowsDatedAt).toISOString(),
    };
  }
}
