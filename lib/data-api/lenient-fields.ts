// Lenient readers for single fields of an upstream body (lib/data-api/README.md "Tolerance of real data"): a
// real API sends nulls, numbers as strings, unknown enum values and broken dates somewhere, and one
// such value must never cost the whole item, let alone the page. Each reader returns the canonical
// value or `undefined` (shown as "—", exported as an empty cell); it never throws. The zod wrappers
// at the end turn them into schema fields, so types are still inferred from schemas.ts.
import { z } from "zod";

/** Longest free text kept (queries, snippets, titles, URLs): a hostile body cannot bloat pages. */
export const TEXT_MAX = 10_000;
/** Longest enum-ish value kept (source, platform, sentiment, intent, types): they are shown as badges. */
export const TOKEN_MAX = 200;
/** An identity longer than this is not cut (a cut id names another item) but makes the item unreadable. */
export const ID_MAX = 200;
/** Most items kept from a string array (competitors_mentioned). */
export const LIST_MAX = 1_000;

/** Cuts at `max` UTF-16 units without leaving half a surrogate pair behind. */
function cap(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

// A plain decimal or exponent number, with optional sign and surrounding spaces: "12", " 3.5 ",
// "-0.25", "1e3". Not "0x1f", "", "Infinity" or "12abc", which Number() would read or misread.
const NUMERIC = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

/** A finite number, or a numeric string read as one. */
export function readNumber(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  if (text.length > 64 || !NUMERIC.test(text)) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/** A safe integer (or a numeric string of one); a fraction where the API says integer is not one. */
export function readInteger(value: unknown): number | undefined {
  const n = readNumber(value);
  return n !== undefined && Number.isSafeInteger(n) ? n : undefined;
}

/** A non-negative safe integer: what a count such as `meta.total` must be. */
export function readCount(value: unknown): number | undefined {
  const n = readInteger(value);
  return n !== undefined && n >= 0 ? n : undefined;
}

/** A boolean, or the strings "true" / "false" (any case, spaces around). */
export function readBoolean(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (typeof value !== "string") return undefined;
  const text = value.trim().toLowerCase();
  return text === "true" ? true : text === "false" ? false : undefined;
}

/** Free text, capped; empty or blank text counts as absent (it would render as nothing). */
export function readText(value: unknown, max = TEXT_MAX): string | undefined {
  if (typeof value !== "string" || value.trim() === "") return undefined;
  return cap(value, max);
}

/**
 * An enum-ish value (source, platform, sentiment, intent, direction, event type): ANY string is
 * kept, trimmed and capped, because the API's sets are open or may grow; the UI shows unknown
 * values as they are, with a neutral style.
 */
export function readToken(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  return text === "" ? undefined : cap(text, TOKEN_MAX);
}

/** An identity: a non-empty string of bounded length, else nothing (the item cannot be read). */
export function readId(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  return text === "" || text.length > ID_MAX ? undefined : text;
}

/** An array of strings: other items are dropped; anything but an array is absent. */
export function readStringList(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: string[] = [];
  for (const item of value) {
    if (out.length >= LIST_MAX) break;
    const text = readText(item, TOKEN_MAX);
    if (text !== undefined) out.push(text);
  }
  return out;
}

// ISO 8601 as APIs really send it: a date, optionally a time ("T" or a space) with optional seconds
// and fraction, optionally a zone ("Z", "+02:00", "+0200"). Read field by field so the result does
// not depend on the JavaScript engine's Date.parse (which accepts "March 7" and rolls 02-31 over).
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;
// The form this app passes on unchanged: date, time with seconds, and a zone.
const CANONICAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?(?:Z|[+-]\d{2}:\d{2})$/;

// The form nearly every timestamp has ("2026-11-20T10:00:00.000Z"), checked without captures.
const CANONICAL_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;

/** A two- or four-digit number at `at` of a string already known to hold digits there. */
const digits = (text: string, at: number, n: number) => {
  let v = 0;
  for (let i = at; i < at + n; i++) v = v * 10 + text.charCodeAt(i) - 48;
  return v;
};

/** Whether a CANONICAL_UTC string names a real date and time. */
function realUtcFields(text: string): boolean {
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  return (
    month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month) && digits(text, 11, 2) <= 23 && digits(text, 14, 2) <= 59 && digits(text, 17, 2) <= 59
  );
}

/** Like Date.UTC, but years 0-99 are those years (Date.UTC reads them as 1900-1999). */
function utcMs(year: number, monthIndex: number, day: number, hour: number, minute: number, second: number, ms: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, monthIndex, day);
  d.setUTCHours(hour, minute, second, ms);
  return d.getTime();
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const daysIn = (year: number, month: number) => (month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : DAYS_IN_MONTH[month - 1]!);

/**
 * An instant as an ISO 8601 string, or absent when it is not a real one. Well-formed zoned
 * timestamps are passed on as they are; other accepted forms (no zone = UTC, as the API's documentation says
 * its timestamps are) become `toISOString()`. An invalid date never reaches Intl.DateTimeFormat,
 * which throws a RangeError on one. (Every list row has a few timestamps, so the common, canonical
 * case allocates nothing.)
 */
export function readTimestamp(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  if (CANONICAL_UTC.test(value)) return realUtcFields(value) ? value : undefined;
  const text = value.length <= 40 ? value.trim() : "";
  const m = ISO.exec(text);
  if (!m) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = m[4] === undefined ? 0 : Number(m[4]);
  const minute = m[5] === undefined ? 0 : Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || second > 59) return undefined;
  let offsetMs = 0;
  const zone = m[8];
  if (zone !== undefined && zone !== "Z" && zone !== "z") {
    const digits = zone.replace(":", "");
    const hours = Number(digits.slice(1, 3));
    const minutes = Number(digits.slice(3, 5));
    // Real offsets lie within ±18:00 (what ECMAScript and ISO 8601 profiles accept).
    if (hours > 18 || minutes > 59 || hours * 60 + minutes > 18 * 60) return undefined;
    offsetMs = (digits[0] === "-" ? -1 : 1) * (hours * 60 + minutes) * 60_000;
  }
  if (CANONICAL.test(text)) return text;
  const fraction = m[7] ? Math.floor(Number(m[7]) * 1000) : 0;
  return new Date(utcMs(year, month - 1, day, hour, minute, second, fraction) - offsetMs).toISOString();
}

/** Plain object (not null, not an array): what an item or a nested group must be. */
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

// ---------------------------------------------------------------------------------------------
// Schema fields. `catch` is a last line of defence: a field can only ever be absent, never fail
// its item.

// Each field is also registered with its reader, so an item schema made only of such fields can be
// read without zod's machinery (itemReader, below).

type Reader = (value: unknown) => unknown;

/** The reader behind each lenient schema field, and whether an item without it is unreadable. */
const READERS = new WeakMap<z.ZodType, { read: Reader; required: boolean }>();

function registered<S extends z.ZodType>(schema: S, read: Reader, required: boolean): S {
  READERS.set(schema, { read, required });
  return schema;
}

// `read` is called with the value only: zod passes a context as a second argument, which a reader
// with an optional parameter (readText's `max`) would take for its own.
const field = <T extends z.ZodType>(read: Reader, type: T) => registered(z.preprocess((value) => read(value), type.optional()).catch(undefined), read, false);

export const numberField = () => field(readNumber, z.number());
export const integerField = () => field(readInteger, z.number().int());
export const countField = () => field(readCount, z.number().int().nonnegative());
export const booleanField = () => field(readBoolean, z.boolean());
export const textField = () => field(readText, z.string());
export const tokenField = () => field(readToken, z.string());
export const timestampField = () => field(readTimestamp, z.string());
export const stringListField = () => field(readStringList, z.array(z.string()));

/** A required identity: without it the item is unreadable (left out and counted). */
export const idField = () =>
  registered(
    z.preprocess((value) => readId(value), z.string()),
    readId,
    true,
  );

/** A required enum-ish or name key (a traffic row's source, a stage, a competitor's name). */
export const keyField = () =>
  registered(
    z.preprocess((value) => readToken(value), z.string()),
    readToken,
    true,
  );

/** A nested group (overview metric, trend, breakdown): anything but an object is absent. */
export const groupField = <S extends z.ZodRawShape>(shape: S) =>
  z.preprocess((v) => (isRecord(v) ? v : undefined), z.object(shape).optional()).catch(undefined);

/**
 * The item schema `schema` as a plain function, when every field of it is a lenient field above:
 * the same output as `schema.safeParse(item)` (a field present in the item is in the output, with
 * its reader's value, undefined included; an absent one is not; other keys are dropped), or
 * undefined where the parse would fail (not an object, a required field unreadable). Undefined
 * when the schema has anything else (a nested group, a refinement): use the schema then.
 *
 * Why: list pages are read row by row, 100 rows a page, and an export reads every page of a
 * view. zod runs several schema layers per field (catch, pipe, preprocess, optional) and allocates
 * for each; V8 pretenures those allocation sites on a busy server (the new space at its maximum
 * size, a page's rows alive when a scavenge comes), so that per-row garbage went straight to the
 * old generation: a 100,000-row export grew the server's heap by 80–110 MB until a full GC
 * (bench/export.bench.ts). The plain reader allocates the output row only.
 */
export function itemReader<S extends z.ZodObject>(schema: S): ((item: unknown) => z.output<S> | undefined) | undefined {
  // A refinement (checks) or kept unknown keys (catchall) is more than its fields say.
  const def = schema._zod.def as { checks?: readonly unknown[]; catchall?: unknown };
  if ((def.checks?.length ?? 0) > 0 || def.catchall !== undefined) return undefined;
  const fields: { key: string; read: Reader; required: boolean }[] = [];
  for (const [key, fieldSchema] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    const reader = READERS.get(fieldSchema);
    if (!reader) return undefined;
    fields.push({ key, ...reader });
  }
  return (item) => {
    if (!isRecord(item)) return undefined;
    const out: Record<string, unknown> = {};
    for (const { key, read, required } of fields) {
      // As zod's object: `in`, so a key present with any value (null included) is read.
      if (!(key in item)) {
        if (required) return undefined;
        continue;
      }
      const value = read(item[key]);
      if (value === undefined && required) return undefined;
      out[key] = value;
    }
    return out as z.output<S>;
  };
}
