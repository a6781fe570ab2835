// @vitest-environment jsdom
// The header's range control over a URL (nuqs' testing adapter stands in for the router's URL): a bad
// date, a backwards range or an unknown zone, from the URL or typed, is said on its field in plain
// words and nothing is applied; the zone beside the range is named as every other place names it.
import { screen } from "@testing-library/react";
import { NuqsTestingAdapter, type UrlUpdateEvent } from "nuqs/adapters/testing";
import type { ReactNode } from "react";
import { describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "@/components/test-utils/render";
import { ViewerTimeZoneProvider } from "@/lib/range/use-date-range";
import { RangeControl } from "./range-control";

/** What the API would say (lib/data-api/params.ts), which the header must not repeat. */
const API_WORDS = /ISO 8601|IANA|must be|must not|calendar date YYYY|\btz\b|\bfrom\b|\bto\b/;

function renderControl(search: string) {
  const onUrlUpdate = vi.fn<(event: UrlUpdateEvent) => void>();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <NuqsTestingAdapter searchParams={search} onUrlUpdate={onUrlUpdate}>
      <ViewerTimeZoneProvider tz="Europe/Berlin">{children}</ViewerTimeZoneProvider>
    </NuqsTestingAdapter>
  );
  return { onUrlUpdate, ...renderWithProviders(<RangeControl />, { wrapper }) };
}

const errorOf = (field: "from" | "to" | "tz") => screen.getByTestId(`range-error-${field}`).textContent ?? "";

describe("RangeControl", () => {
  it("names the zone as people read it, the IANA name kept for the title", () => {
    renderControl("?from=2026-11-01&to=2026-11-30&tz=America/New_York");
    const zone = screen.getByTestId("range-tz");
    expect(zone.textContent).toBe("Time zone: New York time");
    expect(zone.getAttribute("title")).toContain("America/New_York");
    expect(screen.getByTestId("range-label").textContent).toBe("1 Nov – 30 Nov 2026");
  });

  it("a bad date in the URL: 'Check the range', and its field says so in plain words", async () => {
    const { user } = renderControl("?from=2026-02-31&to=2026-11-05");
    expect(screen.getByTestId("range-label").textContent).toBe("Check the range");
    await user.click(screen.getByTestId("range-button"));
    expect(errorOf("from")).toBe("This start date is not a date the dashboard can use. Type it as year-month-day, e.g. 2026-11-01.");
    expect(errorOf("from")).not.toMatch(API_WORDS);
    expect(screen.getByTestId("range-from").getAttribute("aria-invalid")).toBe("true");
  });

  it("a relative range that is no preset in the URL (range=8d): 'Check the range', said in plain words", async () => {
    const { user } = renderControl("?range=8d");
    expect(screen.getByTestId("range-label").textContent).toBe("Check the range");
    await user.click(screen.getByTestId("range-button"));
    expect(screen.getByTestId("range-error-range").textContent).toBe(
      "The relative range in this link is not one the dashboard knows. Choose Today, 7 days, 30 days or 90 days.",
    );
  });

  it("a typed date that is not one is refused on its field and not applied", async () => {
    const { user, onUrlUpdate } = renderControl("?from=2026-11-01&to=2026-11-05&tz=UTC");
    await user.click(screen.getByTestId("range-button"));
    const to = screen.getByTestId("range-to");
    await user.clear(to);
    await user.type(to, "2026-11-31{Enter}");
    expect(errorOf("to")).toBe("This end date is not a date the dashboard can use. Type it as year-month-day, e.g. 2026-11-30.");
    expect(onUrlUpdate).not.toHaveBeenCalled();
  });

  it("a backwards range and an unknown zone are said in plain words", async () => {
    const { user, onUrlUpdate } = renderControl("?from=2026-11-01&to=2026-11-05&tz=UTC");
    await user.click(screen.getByTestId("range-button"));
    const from = screen.getByTestId("range-from");
    await user.clear(from);
    await user.type(from, "2026-11-20");
    const tz = screen.getByTestId("range-tz-input");
    await user.clear(tz);
    await user.type(tz, "Mars/Olympus");
    await user.click(screen.getByTestId("range-apply"));
    expect(errorOf("tz")).toBe("This time zone is not one the dashboard knows. Choose one from the list, e.g. Europe/Berlin or America/New_York.");
    await user.clear(tz);
    await user.type(tz, "UTC");
    await user.click(screen.getByTestId("range-apply"));
    expect(errorOf("from")).toBe("The start date is after the end date. Swap them, or pick another date.");
    for (const field of ["from", "tz"] as const) expect(screen.queryByTestId(`range-error-${field}`)?.textContent ?? "").not.toMatch(API_WORDS);
    expect(onUrlUpdate).not.toHaveBeenCalled();
  });

  it("a good range applies: the URL gets it", async () => {
    const { user, onUrlUpdate } = renderControl("?from=2026-11-01&to=2026-11-05&tz=UTC");
    await user.click(screen.getByTestId("range-button"));
    const to = screen.getByTestId("range-to");
    await user.clear(to);
    await user.type(to, "2026-11-09{Enter}");
    expect(onUrlUpdate).toHaveBeenCalledOnce();
    expect(onUrlUpdate.mock.calls[0]![0].searchParams.get("to")).toBe("2026-11-09");
  });
});
