// @vitest-environment jsdom
// QueryView picks a widget's state from a real React Query result: loading (announced), the data,
// empty, an error with the upstream's request id and a working Retry, "no access" for a 403, the
// session ending for a 401, and earlier data kept under a failed refresh. Plus the unreadable-rows
// notice and a pending answer's dimming.
import { useQuery } from "@tanstack/react-query";
import { act, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "@/components/test-utils/render";
import { DataApiError } from "@/lib/data-api/errors";
import { EmptyState, noRows, PendingAnswer, QueryView, UncheckedNotice, UnreadableNotice } from "./states";

type Rows = string[];

function Widget({ queryFn, isEmpty }: { queryFn: () => Promise<Rows>; isEmpty?: (rows: Rows) => boolean }) {
  const query = useQuery({ queryKey: ["widget"], queryFn });
  return (
    <QueryView query={query} what="traffic by source" loading={<p>skeleton</p>} isEmpty={isEmpty} empty={<EmptyState title="No visitors in this period" />}>
      {(rows) => <p>rows: {rows.join(", ")}</p>}
    </QueryView>
  );
}

const upstreamError = (status: number) =>
  new DataApiError({ status, code: "upstream_error", message: "The Data API did not answer in time.", requestId: "req_7f3a" });

describe("QueryView", () => {
  it("announces loading, then shows the data", async () => {
    let resolve: (rows: Rows) => void = () => {};
    renderWithProviders(<Widget queryFn={() => new Promise<Rows>((r) => (resolve = r))} />);
    const loading = screen.getByTestId("loading");
    expect(loading.getAttribute("role")).toBe("status");
    expect(loading.textContent).toBe("Loading traffic by source…skeleton");
    act(() => resolve(["chatgpt", "organic"]));
    expect(await screen.findByText("rows: chatgpt, organic")).toBeTruthy();
    expect(screen.queryByTestId("loading")).toBeNull();
  });

  it("shows the empty state when the data holds nothing", async () => {
    renderWithProviders(<Widget queryFn={async () => []} isEmpty={(rows) => rows.length === 0} />);
    expect((await screen.findByTestId("empty-state")).textContent).toBe("No visitors in this period");
  });

  it("shows an error in plain words (never the API's developer message), its request id, and Retry fetches again", async () => {
    const queryFn = vi.fn<() => Promise<Rows>>().mockRejectedValueOnce(upstreamError(502)).mockResolvedValueOnce(["claude"]);
    const { user } = renderWithProviders(<Widget queryFn={queryFn} />);
    const error = await screen.findByTestId("widget-error");
    expect(error.getAttribute("role")).toBe("alert");
    expect(error.textContent).toContain("Could not load traffic by source");
    expect(error.textContent).toContain("Workspace Analytics had a problem. Try again shortly.");
    expect(error.textContent).not.toContain("The Data API did not answer in time.");
    expect(screen.getByTestId("request-id").textContent).toBe("req_7f3a");
    await user.click(screen.getByRole("button", { name: "Retry" }));
    expect(await screen.findByText("rows: claude")).toBeTruthy();
    expect(queryFn).toHaveBeenCalledTimes(2);
  });

  it("says a 403 is a missing permission, not an error to retry", async () => {
    renderWithProviders(<Widget queryFn={() => Promise.reject(upstreamError(403))} />);
    const forbidden = await screen.findByTestId("forbidden-state");
    expect(forbidden.textContent).toContain("This API key has no access to traffic by source.");
    expect(screen.queryByRole("button", { name: "Retry" })).toBeNull();
  });

  it("says the session ended on a 401", async () => {
    renderWithProviders(<Widget queryFn={() => Promise.reject(upstreamError(401))} />);
    const ended = await screen.findByText("Your session has ended. Taking you to sign in…");
    expect(ended.closest('[role="status"]')).toBeTruthy();
    expect(screen.queryByTestId("widget-error")).toBeNull();
  });

  it("keeps the earlier data visible under a failed refresh", async () => {
    const queryFn = vi.fn<() => Promise<Rows>>().mockResolvedValueOnce(["gemini"]).mockRejectedValueOnce(upstreamError(503));
    const { queryClient } = renderWithProviders(<Widget queryFn={queryFn} />);
    await screen.findByText("rows: gemini");
    await act(() => queryClient.refetchQueries({ queryKey: ["widget"] }));
    await waitFor(() => expect(screen.getByTestId("widget-error")).toBeTruthy());
    expect(screen.getByText("rows: gemini")).toBeTruthy();
  });
});

describe("UnreadableNotice", () => {
  it("counts in the singular and the plural, with the request to quote", () => {
    const { rerender } = renderWithProviders(<UnreadableNotice unreadable={{ count: 1, request_id: "req_1" }} noun={["stage", "stages"]} />);
    expect(screen.getByTestId("unreadable-notice").textContent).toBe("1 stage could not be read (request req_1) and is not shown.");
    rerender(<UnreadableNotice unreadable={{ count: 1200 }} noun={["stage", "stages"]} />);
    expect(screen.getByTestId("unreadable-notice").textContent).toBe("1,200 stages could not be read and are not shown.");
    rerender(<UnreadableNotice unreadable={undefined} noun={["stage", "stages"]} />);
    expect(screen.queryByTestId("unreadable-notice")).toBeNull();
  });
});

describe("UncheckedNotice", () => {
  it("says rows of the range that could not be read may or may not belong in a filtered list, singular and plural; nothing for none", () => {
    const { rerender } = renderWithProviders(<UncheckedNotice unchecked={{ count: 1 }} noun={["mention", "mentions"]} />);
    expect(screen.getByTestId("unchecked-notice").textContent).toBe(
      "1 mention of the range could not be read, so whether it belongs in this list is not known; it is not shown.",
    );
    rerender(<UncheckedNotice unchecked={{ count: 1200 }} noun={["visitor", "visitors"]} />);
    expect(screen.getByTestId("unchecked-notice").textContent).toBe(
      "1,200 visitors of the range could not be read, so whether they belong in this list is not known; they are not shown.",
    );
    rerender(<UncheckedNotice unchecked={{ count: 0 }} noun={["mention", "mentions"]} />);
    expect(screen.queryByTestId("unchecked-notice")).toBeNull();
  });
});

describe("PendingAnswer", () => {
  it("is dimmed and busy only while a newer answer loads, keeping its own class", () => {
    const { rerender } = renderWithProviders(
      <PendingAnswer pending className="stack">
        figures
      </PendingAnswer>,
    );
    const answer = screen.getByText("figures");
    expect(answer.className).toBe("stack is-pending");
    expect(answer.getAttribute("aria-busy")).toBe("true");
    rerender(<PendingAnswer pending={false}>figures</PendingAnswer>);
    expect(screen.getByText("figures").hasAttribute("class")).toBe(false);
    expect(screen.getByText("figures").hasAttribute("aria-busy")).toBe(false);
  });
});

describe("noRows", () => {
  it("is empty only with no rows and none unreadable: unreadable rows show their notice, not 'no data'", () => {
    expect(noRows({ data: [] })).toBe(true);
    expect(noRows({ data: [], unreadable: { count: 2 } })).toBe(false);
    expect(noRows({ data: ["a"] })).toBe(false);
  });
});
