// Error identity across copies of a module, as the production build holds them (one per bundle): an
// error made by another copy of its class is recognised by its guard, where `instanceof` is not.
// The second copies are real ones: the modules loaded again after vi.resetModules, not look-alikes.
import { describe, expect, it, vi } from "vitest";
import { errorBrand } from "./error-brand";
import * as destinationUrl from "./alerts/destination-url";
import * as resolveName from "./alerts/resolve-name";
import * as exportStream from "./exports/stream";
import * as sealed from "./store/sealed";

/** The same modules loaded once more: their classes are other objects than the ones imported above. */
async function secondCopies() {
  vi.resetModules();
  const [destination, names, exports, seals] = await Promise.all([
    import("./alerts/destination-url"),
    import("./alerts/resolve-name"),
    import("./exports/stream"),
    import("./store/sealed"),
  ]);
  return { destination, names, exports, seals };
}
type Copies = Awaited<ReturnType<typeof secondCopies>>;

describe("errorBrand", () => {
  it("recognises what another brand of the same name marked (another copy of the module), and nothing else", () => {
    class Refused extends Error {}
    const mine = errorBrand<Refused>("test-brand");
    const theirs = errorBrand<Refused>("test-brand");
    const other = errorBrand<Refused>("test-brand-other");
    const error = new Refused("no");
    theirs.mark(error);
    expect(mine.is(error)).toBe(true);
    expect(other.is(error)).toBe(false);
    expect(mine.is(new Refused("unmarked"))).toBe(false);
    for (const value of [null, undefined, "test-brand", 0, {}]) expect(mine.is(value)).toBe(false);
  });

  it("leaves the error as it was otherwise: the mark is not enumerable, so it never reaches a log or JSON", () => {
    const brand = errorBrand<Error>("test-brand-invisible");
    const error = Object.assign(new Error("x"), { code: "c" });
    brand.mark(error);
    expect(Object.keys(error)).toEqual(["code"]);
    expect(JSON.stringify(error)).toBe('{"code":"c"}');
  });

  it.each([
    ["DestinationRefused", (c: Copies) => new c.destination.DestinationRefused("url must not be empty"), destinationUrl.isDestinationRefused],
    ["ExportTooLargeError", (c: Copies) => new c.exports.ExportTooLargeError(2_000_000, 1_000_000), exportStream.isExportTooLargeError],
    ["ExportIntegrityError", (c: Copies) => new c.exports.ExportIntegrityError("short page"), exportStream.isExportIntegrityError],
    ["ExportIdleError", (c: Copies) => new c.exports.ExportIdleError(60_000), exportStream.isExportIdleError],
    ["NameNotResolved", (c: Copies) => new c.names.NameNotResolved("timeout", "no answer within 2 s"), resolveName.isNameNotResolved],
    ["SealedUnreadableError", (c: Copies) => new c.seals.SealedUnreadableError(c.seals.SEALED.watchKey, "ws_1"), sealed.isSealedUnreadable],
  ] as const)("%s made by a second copy of its module is recognised by this copy's guard", async (_name, make, guard) => {
    const error = make(await secondCopies());
    // The premise: this copy's class does not recognise it.
    const classes = [
      destinationUrl.DestinationRefused,
      resolveName.NameNotResolved,
      exportStream.ExportTooLargeError,
      exportStream.ExportIntegrityError,
      exportStream.ExportIdleError,
      sealed.SealedUnreadableError,
    ];
    expect(classes.some((c) => error instanceof c)).toBe(false);
    expect(guard(error)).toBe(true);
  });
});
