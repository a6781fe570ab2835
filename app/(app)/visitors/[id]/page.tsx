// `/visitors/[id]` - one visitor's details and complete timeline (`order=newest|oldest`).
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { StreamedHydrationBoundary } from "@/components/streamed-hydration-boundary";
import { apiQuery } from "@/lib/queries/api";
import { prefetchPage } from "@/lib/queries/prefetch";
import { failedStatus } from "@/lib/queries/streamed-failure";
import { VisitorClient } from "./client";
import { parseVisitorId } from "./search-params";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const id = parseVisitorId((await params).id);
  return { title: id ? `Visitor ${id}` : "Visitor not found" };
}

export default async function VisitorPage({ params }: Props) {
  const id = parseVisitorId((await params).id);
  if (!id) notFound();
  const state = await prefetchPage(async (qc, api) => {
    // The timeline streams; the visitor itself is awaited. An unknown id must be answered with the
    // not-found page and a real 404 status, and the status leaves with the first byte: Next.js can
    // only answer 404 before anything streams (this segment has no loading.tsx for the same reason).
    void qc.prefetchQuery(apiQuery(api, "/visitors/:id/timeline", { params: { id } }));
    const visitor = await qc.fetchQuery(apiQuery(api, "/visitors/:id", { params: { id } }));
    if (failedStatus(visitor) === 404) notFound();
  });
  return (
    <StreamedHydrationBoundary state={state}>
      <VisitorClient id={id} />
    </StreamedHydrationBoundary>
  );
}
