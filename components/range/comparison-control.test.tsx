// @vitest-environment jsdom
// The header's comparison over a URL (nuqs' testing adapter stands in for the router's URL): shown
// on the pages with changes only; each choice put in the URL as the routes take it (the default
// leaving none), a custom window given by its first day with its last following from the range's
// length; a bad comparison in a link said in plain words.
import { screen } from "@testing-library/react";
import { NuqsTestingAdapter, type UrlUpdateEvent } from "nuqs/adapters/testing";
import type { ReactNode } from "react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "@/components/test-utils/render";
import { ViewerTimeZoneProvider } from "@/lib/range/use-date-range";
import { ComparisonControl } from "./comparison-control";

const pathname = vi.hoisted(() => ({ current: "/locations" }));
vi.mock("next/navigation", async (importOriginal) => ({ ...(await importOriginal<object>()), usePathname: () => pathname.current }));

function renderControl(search: string) {
  const onUrlUpdate = vi.fn<(event: UrlUpdateEvent) => void>();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <NuqsTestingAdapter searchParams={search} onUrlUpdate={onUrlUpdate}>
      <ViewerTimeZoneProvider tz="UTC">{children}</ViewerTimeZoneProvider>
    </NuqsTestingAdapter>
  );
  return { onUrlUpdate, ...renderWithProviders(<ComparisonControl />, { wrapper }) };
}

const RANGE = "?from=2026-11-01&to=2026-11-30&tz=UTC";
const lastQuery = (fn: ReturnType<typeof vi.fn<(event: UrlUpdateEvent) => void>>) => Object.fromEntries(fn.mock.calls.at(-1)![0].searchParams);

describe("ComparisonControl", () => {
  beforeEach(() => {
    pathname.current = "/locations";
  });

  it("is beside the range only on the pages that show changes", () => {
    pathname.current = "/visitors";
    renderControl(RANGE);
    expect(screen.queryByTestId("comparison-control")).toBeNull();
  });

  it("says the previous period by default, and a year before is put in the URL as compare=year", async () => {
    const { user, onUrlUpdate } = renderControl(RANGE);
    expect(screen.getByTestId("comparison-label").textContent).toBe("vs previous 30 days");
    await user.click(screen.getByTestId("comparison-button"));
    // Each choice names its dates before it is applied.
    expect(screen.getByTestId("comparison-panel").textContent).toContain("Previous period 2 Oct – 31 Oct 2026");
    expect(screen.getByTestId("comparison-panel").textContent).toContain("Same days a year before 1 Nov – 30 Nov 2025");
    await user.click(screen.getByTestId("comparison-year"));
    await user.click(screen.getByTestId("comparison-apply"));
    expect(lastQuery(onUrlUpdate)).toEqual({ from: "2026-11-01", to: "2026-11-30", tz: "UTC", compare: "year" });
    expect(screen.getByTestId("comparison-label").textContent).toBe("vs a year before");
    expect(screen.queryByTestId("comparison-panel")).toBeNull();
  });

  it("a custom window is its first day, typed; its last follows from the range's length", async () => {
    const { user, onUrlUpdate } = renderControl(RANGE);
    await user.click(screen.getByTestId("comparison-button"));
    await user.click(screen.getByTestId("comparison-custom"));
    const start = screen.getByTestId("comparison-from");
    await user.clear(start);
    await user.type(start, "2026-08-01");
    expect(screen.getByTestId("comparison-custom-window").textContent).toBe("Compares with 1 Aug – 30 Aug 2026: as many days as the range.");
    await user.type(start, "{Enter}");
    expect(lastQuery(onUrlUpdate)).toMatchObject({ compare: "custom", compare_from: "2026-08-01", compare_to: "2026-08-30" });
    expect(screen.getByTestId("comparison-label").textContent).toBe("vs 1 Aug – 30 Aug 2026");
  });

  it("a first day that is not a date is said on its field and nothing is applied", async () => {
    const { user, onUrlUpdate } = renderControl(RANGE);
    await user.click(screen.getByTestId("comparison-button"));
    await user.click(screen.getByTestId("comparison-custom"));
    const start = screen.getByTestId("comparison-from");
    await user.clear(start);
    await user.type(start, "2026-02-31{Enter}");
    expect(screen.getByTestId("comparison-from-error").textContent).toBe(
      "The comparison's first day is not a date the dashboard can use. Type it as year-month-day, e.g. 2026-10-01.",
    );
    expect(onUrlUpdate).not.toHaveBeenCalled();
  });

  it("going back to the previous period takes the parameters out of the URL (the default)", async () => {
    const { user, onUrlUpdate } = renderControl(`${RANGE}&compare=custom&compare_from=2026-08-01&compare_to=2026-08-30`);
    await user.click(screen.getByTestId("comparison-button"));
    await user.click(screen.getByTestId("comparison-previous"));
    await user.click(screen.getByTestId("comparison-apply"));
    expect(lastQuery(onUrlUpdate)).toEqual({ from: "2026-11-01", to: "2026-11-30", tz: "UTC" });
  });

  it("a link's comparison of another length: 'Check the comparison', said in plain words", async () => {
    const { user } = renderControl(`${RANGE}&compare=custom&compare_from=2026-08-01&compare_to=2026-08-05`);
    expect(screen.getByTestId("comparison-label").textContent).toBe("Check the comparison");
    await user.click(screen.getByTestId("comparison-button"));
    expect(screen.getByTestId("comparison-error").textContent).toBe(
      "The comparison in this link does not have as many days as the range. Choose its first day again.",
    );
  });
});
