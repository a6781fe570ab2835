// @vitest-environment jsdom
// A time on a page: in the viewer's zone, the exact instant on hover, and, where recency matters
// too (a mention), the time itself with how long ago beside it, not the relative words alone.
import { screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "@/components/test-utils/render";
import { ViewerTimeZoneProvider } from "@/lib/range/use-date-range";
import { DateTime } from "./date-time";

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
});
