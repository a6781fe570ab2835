// itemReader: an item schema made of lenient fields, read without zod, must give exactly what the
// schema's parse gives (same keys, same values, same items unreadable) for any item, odd ones first.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { itemReader, textField, TEXT_MAX, TOKEN_MAX } from "./lenient-fields";
import { funnelStageSchema, mentionSchema, overviewSchema, rankingRowSchema, timelineEventSchema, trafficRowSchema, visitorSchema } from "./schemas";

/** Values a real upstream sends somewhere: right and wrong types, blanks, edges, oversized ones. */
const ODD_VALUES: unknown[] = [
  undefined,
  null,
  "",
  "   ",
  " padded ",
  "vis_0001",
  "x".repeat(TOKEN_MAX + 5),
  "y".repeat(TEXT_MAX + 5),
  "São Paulo",
  '=HYPERLINK("x")',
  "12",
  " 3.5 ",
  "-0",
  "1e3",
  "0x1f",
  "Infinity",
  "true",
  " FALSE ",
  "2026-11-20T12:00:00.000Z",
  "2026-11-20T12:00:00Z",
  "2026-02-31T00:00:00Z",
  "2026-11-20 12:00",
  "2026-11-20T12:00:00+02:00",
  "2026-11-20",
  "March 7",
  0,
  -5,
  12,
  3.5,
  Number.MAX_SAFE_INTEGER + 2,
  true,
  false,
  [],
  ["a", 1, " ", "b"],
  [null],
  {},
  { nested: 1 },
];

/** A small deterministic generator (mulberry32), so a failure names a reproducible case. */
function prng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Items with each of the schema's keys (and an unknown one) absent or holding an odd value. */
function oddItems(shape: Record<string, unknown>, count: number, seed: number): unknown[] {
  const random = prng(seed);
  const pick = () => ODD_VALUES[Math.floor(random() * ODD_VALUES.length)];
  const items: unknown[] = [null, "vis_1", 42, [], [{ id: "vis_1" }], {}];
  for (let i = 0; i < count; i++) {
    const item: Record<string, unknown> = {};
    for (const key of [...Object.keys(shape), "unknown_field"]) {
      // Identity keys are mostly right, so most items are readable and their other fields compared.
      if (random() < 0.25) continue;
      item[key] = random() < 0.5 && (key === "id" || key === "source" || key === "stage" || key === "name") ? `k_${i}` : pick();
    }
    items.push(item);
  }
  return items;
}

const READ_WITHOUT_ZOD = { visitorSchema, mentionSchema, trafficRowSchema, funnelStageSchema, rankingRowSchema };

describe("itemReader", () => {
  for (const [name, schema] of Object.entries(READ_WITHOUT_ZOD)) {
    it(`${name}: the same rows as the schema's parse, key for key, and the same items unreadable`, () => {
      const read = itemReader(schema as z.ZodObject);
      expect(read).toBeTypeOf("function");
      let readable = 0;
      for (const item of oddItems(schema.shape, 3000, name.length)) {
        const parsed = schema.safeParse(item);
        const row = read!(item);
        if (!parsed.success) {
          expect(row, JSON.stringify(item)).toBeUndefined();
          continue;
        }
        readable++;
        expect(row, JSON.stringify(item)).toStrictEqual(parsed.data);
        // Present-but-unreadable fields stay as keys with undefined, as in the parse; order too.
        expect(Object.keys(row!)).toEqual(Object.keys(parsed.data));
      }
      expect(readable).toBeGreaterThan(500);
    });
  }

  it("is not offered where the schema says more than its lenient fields", () => {
    // A refinement (a timeline event needs a type or a time), a nested group, kept unknown keys, a plain zod field.
    expect(itemReader(timelineEventSchema)).toBeUndefined();
    expect(itemReader(overviewSchema)).toBeUndefined();
    expect(itemReader(z.looseObject({ note: textField() }))).toBeUndefined();
    expect(itemReader(z.object({ note: textField(), count: z.number() }))).toBeUndefined();
  });
});
