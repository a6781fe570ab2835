// @vitest-environment jsdom
// A widget streams, loads and fails on its own: its skeleton while its first answer is in flight
// (suspending, while a sibling already shows its data), a failed answer as its error state with the
// request id (not thrown at the page), a render that throws caught by its own boundary, the previous
// answer kept (dimmed) when its key changes, and a page's streamed failure hydrated as the error /api
// gives. Also: a streamed answer already received is read at once, without a loading state.
import { keepPreviousData, QueryClient, type DehydratedState } from "@tanstack/react-query";
import { act, screen, waitFor } from "@testing-library/react";
import type { ReactElement, ReactNode } from "react";
import { describe, expect, it } from "vitest";
import { StreamedHydrationBoundary } from "@/components/streamed-hydration-boundary";
import { renderWithProviders } from "@/components/test-utils/render";
import { DataApiError } from "@/lib/data-api/errors";
import { rejectingFailures, streamedFailure } from "@/lib/queries/streamed-failure";
import { QueryView } from "./states";
import { useWidgetQuery, Widget } from "./widget";

type Rows = string[];

/**
 * Renders inside an awaited act, so React retries what suspended on `use` once it settles (a sync
 * act does not), with the app's rule that a failed query is not fetched again just for mounting.
 */
async function renderWidgets(ui: ReactElement) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, retryOnMount: false, gcTime: Number.POSITIVE_INFINITY } } });
  let rendered: ReturnType<typeof renderWithProviders> | undefined;
  await act(async () => {
    rendered = renderWithProviders(ui, { queryClient });
  });
  return rendered!;
}

function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  let reject: (reason: unknown) => void = () => {};
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A widget body, rendering its own frame as the app's widgets do. */
function Rows({ name, queryFn }: { name: string; queryFn: () => Promise<Rows> }) {
  const query = useWidgetQuery({ queryKey: ["rows", name], queryFn });
  return (
    <section data-testid={`${name}-card`}>
      <QueryView query={query} what={name} loading={<p>not fetching yet</p>}>
        {(rows) => <p data-testid={`${name}-rows`}>{rows.join(", ")}</p>}
      </QueryView>
    </section>
  );
}

function frame(name: string) {
  return function Frame(body: ReactNode) {
    return <section data-testid={`${name}-card`}>{body}</section>;
  };
}

function Page({ slow, fast }: { slow: () => Promise<Rows>; fast: () => Promise<Rows> }) {
  return (
    <>
      <Widget what="slow" frame={frame("slow")} loading={<p>slow skeleton</p>}>
        <Rows name="slow" queryFn={slow} />
      </Widget>
      <Widget what="fast" frame={frame("fast")} loading={<p>fast skeleton</p>}>
        <Rows name="fast" queryFn={fast} />
      </Widget>
    </>
  );
}

describe("Widget", () => {
  it("shows its loading state, in its frame, while its answer is in flight, and does not hold its sibling", async () => {
    const slow = deferred<Rows>();
    await renderWidgets(<Page slow={() => slow.promise} fast={async () => ["organic"]} />);
    expect((await screen.findByTestId("fast-rows")).textContent).toBe("organic");
    const card = screen.getByTestId("slow-card");
    expect(card.querySelector('[data-testid="loading"]')?.textContent).toMatch(/^Loading slow…/);
    await act(async () => slow.resolve(["chatgpt"]));
    expect((await screen.findByTestId("slow-rows")).textContent).toBe("chatgpt");
    expect(screen.queryByTestId("loading")).toBeNull();
  });

  it("shows a failed answer as its own error state with the request id, the page around it intact", async () => {
    const failure = new DataApiError({ status: 502, code: "upstream_error", message: "The Data API failed (500) while loading slow.", requestId: "req_5e1f" });
    await renderWidgets(<Page slow={() => Promise.reject(failure)} fast={async () => ["organic"]} />);
    const error = await screen.findByTestId("widget-error");
    expect(screen.getByTestId("slow-card").contains(error)).toBe(true);
    expect(error.textContent).toContain("Workspace Analytics had a problem. Try again shortly.");
    expect(error.textContent).not.toContain("(500)");
    expect(screen.getByTestId("request-id").textContent).toBe("req_5e1f");
    expect(screen.getByRole("button", { name: "Retry" })).toBeTruthy();
    expect(screen.getByTestId("fast-rows").textContent).toBe("organic");
  });

  it("catches what its render throws in its own boundary", async () => {
    function Broken(): never {
      throw new Error("odd data broke this chart");
    }
    const quiet = console.error;
    console.error = () => {};
    try {
      await renderWidgets(
        <>
          <Widget what="the chart" frame={frame("broken")} loading={<p>…</p>}>
            <Broken />
          </Widget>
          <Widget what="fast" frame={frame("fast")} loading={<p>…</p>}>
            <Rows name="fast" queryFn={async () => ["direct"]} />
          </Widget>
        </>,
      );
      expect((await screen.findByTestId("fast-rows")).textContent).toBe("direct");
      const card = screen.getByTestId("broken-card");
      expect(card.textContent).toContain("Could not load the chart");
      // What a render threw is this app's bug: its text is for the log, not for the reader.
      expect(card.textContent).toContain("Something went wrong while showing this. Try again.");
      expect(card.textContent).not.toContain("odd data broke this chart");
    } finally {
      console.error = quiet;
    }
  });

  it("keeps the previous answer on screen, dimmed, while a new key loads (no skeleton)", async () => {
    const next = deferred<Rows>();
    // One component whose key changes, as a filter change does.
    function Switch({ filter }: { filter: string }) {
      const query = useWidgetQuery({
        queryKey: ["rows", filter],
        queryFn: filter === "all" ? async () => ["a", "b"] : () => next.promise,
        placeholderData: keepPreviousData,
      });
      return (
        <p data-testid="shown" className={query.isPlaceholderData ? "is-pending" : undefined}>
          {query.data?.join(", ")}
        </p>
      );
    }
    const { rerender } = await renderWidgets(
      <Widget what="rows" loading={<p>skeleton</p>}>
        <Switch filter="all" />
      </Widget>,
    );
    await waitFor(() => expect(screen.getByTestId("shown").textContent).toBe("a, b"));
    await act(async () =>
      rerender(
        <Widget what="rows" loading={<p>skeleton</p>}>
          <Switch filter="paid" />
        </Widget>,
      ),
    );
    expect(screen.queryByTestId("loading")).toBeNull();
    expect(screen.getByTestId("shown").textContent).toBe("a, b");
    expect(screen.getByTestId("shown").className).toBe("is-pending");
    await act(async () => next.resolve(["c"]));
    await waitFor(() => expect(screen.getByTestId("shown").textContent).toBe("c"));
    expect(screen.getByTestId("shown").className).toBe("");
  });

  it("in a card: the card, its title read as the widget's name, holds the loading state and then the answer", async () => {
    const answer = deferred<Rows>();
    function Answer() {
      const query = useWidgetQuery({ queryKey: ["rows", "carded"], queryFn: () => answer.promise });
      return <QueryView query={query}>{(rows) => <p data-testid="carded-rows">{rows.join(", ")}</p>}</QueryView>;
    }
    await renderWidgets(
      <Widget what="the carded rows" card={{ title: "Carded rows", description: "Rows in a card", testId: "carded-card" }} loading={<p>skeleton</p>}>
        <Answer />
      </Widget>,
    );
    const card = screen.getByRole("region", { name: "Carded rows" });
    expect(card.getAttribute("data-testid")).toBe("carded-card");
    expect(card.querySelector('[data-testid="loading"]')?.textContent).toBe("Loading the carded rows…skeleton");
    await act(async () => answer.resolve(["bing"]));
    expect(screen.getByRole("region", { name: "Carded rows" }).contains(await screen.findByTestId("carded-rows"))).toBe(true);
  });

  it("gives the QueryView inside it its name for the data and its loading state, unless the view has its own", async () => {
    // A query that is not fetching: the view itself shows the loading state (nothing suspends).
    function Idle({ name, loading }: { name: string; loading?: ReactNode }) {
      const query = useWidgetQuery<Rows>({ queryKey: ["rows", name], queryFn: async () => [], enabled: false });
      return (
        <div data-testid={`${name}-view`}>
          <QueryView query={query} loading={loading}>
            {(rows) => rows.join(", ")}
          </QueryView>
        </div>
      );
    }
    await renderWidgets(
      <>
        <Widget what="the idle rows" loading={<p>widget skeleton</p>}>
          <Idle name="inherits" />
        </Widget>
        <Widget what="the other rows" loading={<p>widget skeleton</p>}>
          <Idle name="own" loading={<p>own skeleton</p>} />
        </Widget>
      </>,
    );
    expect(screen.getByTestId("inherits-view").textContent).toBe("Loading the idle rows…widget skeleton");
    expect(screen.getByTestId("own-view").textContent).toBe("Loading the other rows…own skeleton");
  });
});

describe("a page's streamed state", () => {
  const pending = (promise: PromiseLike<unknown>): DehydratedState => ({
    mutations: [],
    queries: [
      {
        queryKey: ["rows", "slow"],
        queryHash: '["rows","slow"]',
        dehydratedAt: Date.now(),
        state: {
          data: undefined,
          dataUpdateCount: 0,
          dataUpdatedAt: 0,
          error: null,
          errorUpdateCount: 0,
          errorUpdatedAt: 0,
          fetchFailureCount: 0,
          fetchFailureReason: null,
          fetchMeta: null,
          isInvalidated: false,
          status: "pending",
          fetchStatus: "fetching",
        },
        promise: promise as Promise<unknown>,
      },
    ],
  });
  const never = () => new Promise<Rows>(() => {});

  it("hydrates a streamed failure as the error /api gives, with its request id", async () => {
    const marker = streamedFailure(new DataApiError({ status: 403, code: "forbidden", message: "This API key has no access to slow.", requestId: "req_0a1b" }));
    await renderWidgets(
      <StreamedHydrationBoundary state={pending(Promise.resolve(marker))}>
        <Widget what="slow" loading={<p>skeleton</p>}>
          <Rows name="slow" queryFn={never} />
        </Widget>
      </StreamedHydrationBoundary>,
    );
    const forbidden = await screen.findByTestId("forbidden-state");
    expect(forbidden.textContent).toContain("This API key has no access to slow.");
    expect(screen.getByTestId("request-id").textContent).toBe("req_0a1b");
  });

  it("suspends on a streamed answer still in flight (its skeleton in the Suspense fallback), then shows it, without fetching it again", async () => {
    const answer = deferred<Rows>();
    await renderWidgets(
      <StreamedHydrationBoundary state={pending(answer.promise)}>
        <Widget what="slow" loading={<p>skeleton</p>}>
          <Rows name="slow" queryFn={never} />
        </Widget>
      </StreamedHydrationBoundary>,
    );
    expect(screen.getByTestId("loading").textContent).toBe("Loading slow…skeleton");
    await act(async () => answer.resolve(["perplexity"]));
    expect((await screen.findByTestId("slow-rows")).textContent).toBe("perplexity");
  });
});

describe("rejectingFailures", () => {
  /** A thenable already fulfilled, calling back synchronously as React's streamed promises do. */
  const fulfilled = <T,>(value: T): PromiseLike<T> => ({
    then: (onFulfilled) => {
      onFulfilled?.(value);
      return undefined as never;
    },
  });

  it("reads an answer already received synchronously (React Query then hydrates it without a loading state)", () => {
    let seen: Rows | undefined;
    void rejectingFailures(fulfilled(["claude"])).then((rows) => (seen = rows));
    expect(seen).toEqual(["claude"]);
  });

  it("turns a failure marker into a rejection with its DataApiError", async () => {
    const error = new DataApiError({ status: 400, code: "invalid_parameter", message: "source must be one of: chatgpt", param: "source", requestId: "req_1" });
    let rejected: unknown;
    void rejectingFailures(fulfilled(streamedFailure(error))).then(undefined, (reason) => (rejected = reason));
    expect(rejected).toBeInstanceOf(DataApiError);
    expect(rejected).toMatchObject({ status: 400, code: "invalid_parameter", param: "source", message: "source must be one of: chatgpt", requestId: "req_1" });
    await expect(Promise.resolve(rejectingFailures(Promise.resolve(streamedFailure(error))))).rejects.toMatchObject({ status: 400, param: "source" });
  });
});
