// The one way figure tables sort (TanStack's sorted row model under the app's rules): the URL's
// parameter read and written, largest first then smallest first then the table's own order, unknown
// figures last in both directions, ties in the answer's order, names as people read them.
import { describe, expect, it } from "vitest";
import { parseSort, sameSort, sortParam, sortRows, type SortColumn } from "./table-sort";

type Country = { code: string; name: string; visitors: number; rate: number | null };

const ROWS: Country[] = [
  { code: "DE", name: "Germany", visitors: 120, rate: 2.5 },
  { code: "AX", name: "Åland Islands", visitors: 3, rate: null },
  { code: "US", name: "United States", visitors: 340, rate: 1.2 },
  { code: "AL", name: "Albania", visitors: 120, rate: 4.0 },
  { code: "FR", name: "France", visitors: 45, rate: null },
];

const COLUMNS: SortColumn<Country>[] = [
  { id: "country", kind: "text", value: (r) => r.name },
  { id: "visitors", kind: "number", value: (r) => r.visitors },
  { id: "conversion_rate", kind: "number", value: (r) => r.rate },
];

const codes = (rows: readonly Country[]) => rows.map((r) => r.code);

describe("the sort parameter", () => {
  it("reads '-column' as largest first and 'column' as smallest first", () => {
    expect(parseSort("-visitors", COLUMNS)).toEqual({ id: "visitors", desc: true });
    expect(parseSort("conversion_rate", COLUMNS)).toEqual({ id: "conversion_rate", desc: false });
  });

  it("a column the table does not have, or nothing, is no sort (the table's own order)", () => {
    for (const value of ["-pageviews", "", "--visitors", "-", null, undefined]) expect(parseSort(value, COLUMNS), String(value)).toBeNull();
  });

  it("is written back as read", () => {
    for (const value of ["-visitors", "country"]) expect(sortParam(parseSort(value, COLUMNS)!)).toBe(value);
    expect(sameSort({ id: "visitors", desc: true }, { id: "visitors", desc: true })).toBe(true);
    expect(sameSort({ id: "visitors", desc: true }, { id: "visitors", desc: false })).toBe(false);
    expect(sameSort(null, null)).toBe(true);
    expect(sameSort(null, { id: "visitors", desc: true })).toBe(false);
  });
});

describe("sorting the rows", () => {
  it("without a sort keeps the answer's order", () => {
    expect(codes(sortRows(ROWS, COLUMNS, null).rows)).toEqual(["DE", "AX", "US", "AL", "FR"]);
  });

  it("largest first, ties in the answer's order (Germany before Albania at 120)", () => {
    expect(codes(sortRows(ROWS, COLUMNS, { id: "visitors", desc: true }).rows)).toEqual(["US", "DE", "AL", "FR", "AX"]);
    expect(codes(sortRows(ROWS, COLUMNS, { id: "visitors", desc: false }).rows)).toEqual(["AX", "FR", "DE", "AL", "US"]);
  });

  it("an unknown figure ('—') goes last whichever way round, never first as if it were 0", () => {
    expect(codes(sortRows(ROWS, COLUMNS, { id: "conversion_rate", desc: true }).rows)).toEqual(["AL", "DE", "US", "AX", "FR"]);
    expect(codes(sortRows(ROWS, COLUMNS, { id: "conversion_rate", desc: false }).rows)).toEqual(["US", "DE", "AL", "AX", "FR"]);
  });

  it("names sort as people read them: Å beside A, not after Z", () => {
    expect(codes(sortRows(ROWS, COLUMNS, { id: "country", desc: false }).rows)).toEqual(["AX", "AL", "FR", "DE", "US"]);
    expect(codes(sortRows(ROWS, COLUMNS, { id: "country", desc: true }).rows)).toEqual(["US", "DE", "FR", "AL", "AX"]);
  });

  it("does not reorder the rows it was given", () => {
    const given = [...ROWS];
    sortRows(given, COLUMNS, { id: "visitors", desc: true });
    expect(codes(given)).toEqual(codes(ROWS));
  });
});

describe("what a header's button does next", () => {
  it("a figure: largest first, then smallest first, then the table's own order", () => {
    expect(sortRows(ROWS, COLUMNS, null).next("visitors")).toEqual({ id: "visitors", desc: true });
    expect(sortRows(ROWS, COLUMNS, { id: "visitors", desc: true }).next("visitors")).toEqual({ id: "visitors", desc: false });
    expect(sortRows(ROWS, COLUMNS, { id: "visitors", desc: false }).next("visitors")).toBeNull();
  });

  it("a name: A to Z first", () => {
    expect(sortRows(ROWS, COLUMNS, null).next("country")).toEqual({ id: "country", desc: false });
    expect(sortRows(ROWS, COLUMNS, { id: "country", desc: false }).next("country")).toEqual({ id: "country", desc: true });
  });

  it("another column starts at its own first direction, whatever the current sort", () => {
    expect(sortRows(ROWS, COLUMNS, { id: "visitors", desc: false }).next("conversion_rate")).toEqual({ id: "conversion_rate", desc: true });
  });
});
