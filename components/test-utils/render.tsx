// Renders a component for a React Testing Library test as the app would: inside a QueryClientProvider
// with a fresh QueryClient per test (no retries, nothing shared between tests, no garbage-collection
// timers left running) and nuqs' testing adapter for the URL's query (`searchParams`, empty unless
// given; with `onUrlUpdate`, which hears what the component writes there, the component also reads
// back what it wrote, as in a browser), plus a userEvent session. What it rendered is unmounted after each test by
// vitest.setup.ts (these tests run without vitest globals, with which Testing Library would register
// its own cleanup; and a hook registered here would only reach the first file of a worker, since
// modules are loaded once per worker). Test files that render use `// @vitest-environment jsdom`;
// everything else stays on Node.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, type RenderOptions } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { NuqsTestingAdapter, type UrlUpdateEvent } from "nuqs/adapters/testing";
import type { ReactElement, ReactNode } from "react";

function createTestQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Number.POSITIVE_INFINITY, staleTime: Number.POSITIVE_INFINITY } } });
}

export function renderWithProviders(
  ui: ReactElement,
  {
    queryClient = createTestQueryClient(),
    searchParams = "",
    onUrlUpdate,
    ...options
  }: RenderOptions & {
    queryClient?: QueryClient;
    searchParams?: string;
    /** Hears every URL change the component makes. */ onUrlUpdate?: (event: UrlUpdateEvent) => void;
  } = {},
) {
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <NuqsTestingAdapter searchParams={searchParams} {...(onUrlUpdate ? { onUrlUpdate, hasMemory: true } : {})}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </NuqsTestingAdapter>
  );
  return { queryClient, user: userEvent.setup(), ...render(ui, { wrapper: Wrapper, ...options }) };
}
