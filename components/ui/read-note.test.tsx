// @vitest-environment jsdom
// When an insight's figures were read: closed days kept, today read so long ago, in the answer's
// zone (a range ending today in Kolkata while UTC is still on the day before); a range of closed
// days says they are kept; the note appears once the page has hydrated and moves on with its clock.
import { act, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "@/components/test-utils/render";
import { ReadNote, readNoteText } from "./read-note";

const NOW = Date.parse("2026-11-29T20:00:00Z");

describe("readNoteText", () => {
  it.each([
    [{ from: "2026-10-31", to: "2026-11-29", tz: "UTC" }, NOW - 30_000, "Figures up to 28 Nov 2026 kept; today read less than a minute ago"],
    [{ from: "2026-10-31", to: "2026-11-29", tz: "UTC" }, NOW - 61_000, "Figures up to 28 Nov 2026 kept; today read 1 minute ago"],
    [{ from: "2026-10-31", to: "2026-11-29", tz: "UTC" }, NOW - 5 * 60_000, "Figures up to 28 Nov 2026 kept; today read 5 minutes ago"],
    // Already 30 November in Kolkata: the 29th is closed there.
    [{ from: "2026-11-01", to: "2026-11-30", tz: "Asia/Kolkata" }, NOW, "Figures up to 29 Nov 2026 kept; today read less than a minute ago"],
    [{ from: "2026-11-29", to: "2026-11-29", tz: "UTC" }, NOW - 120_000, "Today read 2 minutes ago"],
    [{ from: "2026-10-01", to: "2026-10-31", tz: "UTC" }, NOW, "Figures of closed days, kept by the dashboard"],
  ])("%j read at %d", (answer, readAt, text) => {
    expect(readNoteText(answer, readAt, NOW)).toBe(text);
  });
});

describe("ReadNote", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date", "setInterval", "clearInterval"] });
    vi.setSystemTime(new Date(NOW));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("shows once hydrated, on the page clock, and moves on as it ticks", async () => {
    renderWithProviders(<ReadNote answer={{ from: "2026-10-31", to: "2026-11-29", tz: "UTC" }} readAt={NOW} />);
    expect((await screen.findByTestId("read-note")).textContent).toContain("today read less than a minute ago");
    await act(async () => {
      vi.advanceTimersByTime(3 * 60_000);
    });
    expect(screen.getByTestId("read-note").textContent).toContain("today read 3 minutes ago");
  });
});
