// @vitest-environment jsdom
// A time on a page: in the viewer's zone, the exact instant on hover, and, where recency matters
// too (a mention), the time itself with how long ago beside it, not the relative words alone. What
// happened reads as past: a time listed after the page's clock was last read (a delivery the poll
// brings in) makes it read again, and one stamped by a server whose clock runs ahead reads "now";
// relative times move on while shown.
import { act, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "@/components/test-utils/render";
import { ViewerTimeZoneProvider } from "@/lib/range/use-date-range";
import { DateTime, TICK_MS } from "./date-time";

describe("DateTime", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-29T13:03:00Z"));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const show = (mode: "relative" | "both") =>
    renderWithProviders(
      <ViewerTimeZoneProvider tz="Europe/Berlin">
        <DateTime iso="2026-11-27T13:03:00Z" mode={mode} />
      </ViewerTimeZoneProvider>,
    );

  it("both: the time in the viewer's zone and how long ago, the exact instant on hover", () => {
    show("both");
    const time = screen.getByText(/27 Nov 2026/);
    expect(time.textContent).toBe("27 Nov 2026, 14:03 · 2 days ago");
    expect(time.getAttribute("title")).toBe("Friday 27 November 2026, 14:03:00 (Berlin time)");
    expect(time.getAttribute("datetime")).toBe("2026-11-27T13:03:00Z");
  });

  it("relative: how long ago only", () => {
    show("relative");
    expect(screen.getByText("2 days ago").getAttribute("title")).toBe("Friday 27 November 2026, 14:03:00 (Berlin time)");
  });

  const at = (iso: string, tense?: "past" | "future") => (
    <ViewerTimeZoneProvider tz="Europe/Berlin">
      <DateTime iso={iso} mode="relative" {...(tense ? { tense } : {})} />
    </ViewerTimeZoneProvider>
  );

  it("a time listed after the clock was last read is said as past: the clock is read again, not kept", () => {
    const view = renderWithProviders(at("2026-11-29T13:02:00Z"));
    expect(screen.getByText("1 minute ago")).toBeTruthy();
    // 20 s later the list is read again and a test delivered 3 s ago comes first.
    vi.setSystemTime(new Date("2026-11-29T13:03:20Z"));
    view.rerender(at("2026-11-29T13:03:17Z"));
    expect(screen.getByRole("time").textContent).toBe("3 seconds ago");
  });

  it("a time ahead of this browser's clock (the server's runs ahead) that happened reads now; a next try whose time has come reads now", () => {
    renderWithProviders(
      <>
        {at("2026-11-29T13:03:04Z")}
        {at("2026-11-29T13:02:58Z", "future")}
        {at("2026-11-29T13:13:00Z", "future")}
      </>,
    );
    expect(screen.getAllByRole("time").map((t) => t.textContent)).toEqual(["now", "now", "in 10 minutes"]);
  });

  it("relative times move on while they are shown", () => {
    vi.useRealTimers();
    vi.useFakeTimers({ toFake: ["Date", "setInterval", "clearInterval"] });
    vi.setSystemTime(new Date("2026-11-29T13:03:00Z"));
    renderWithProviders(at("2026-11-29T13:02:50Z"));
    expect(screen.getByRole("time").textContent).toBe("10 seconds ago");
    act(() => vi.advanceTimersByTime(4 * TICK_MS));
    expect(screen.getByRole("time").textContent).toBe("1 minute ago");
  });
});
