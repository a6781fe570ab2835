"use client";
// Client-side providers: the browser's one QueryClient (see lib/queries/get-query-client.ts), and
// nuqs' Next.js adapter for the views' URL state (each page's search-params.ts), writing parameters
// in sorted order so a view has one URL however its filters were chosen.
import { QueryClientProvider } from "@tanstack/react-query";
import { NuqsAdapter } from "nuqs/adapters/next/app";
import type { ReactNode } from "react";
import { getQueryClient } from "@/lib/queries/get-query-client";
import { sortSearchParams } from "@/lib/ui/url-state";

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={getQueryClient()}>
      <NuqsAdapter processUrlSearchParams={sortSearchParams}>{children}</NuqsAdapter>
    </QueryClientProvider>
  );
}
