// `/visitors/[id]` - one visitor's details and complete timeline (`order=newest|oldest`).
import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { errorStatus } from "@/lib/queries/error-status";
import { routeKey } from "@/lib/data-api/route-path";
import { apiQuery } from "@/lib/queries/api";
import { prefetchPageWithClient } from "@/lib/queries/prefetch";
import { VisitorClient } from "./client";
import { parseTimelineOrder, parseVisitorId } from "./search-params";

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const id = parseVisitorId((await params).id);
  return { title: id ? `Visitor ${id}` : "Visitor not found" };
}

export default async function VisitorPage({ params, searchParams }: Props) {
  const id = parseVisitorId((await params).id);
  if (!id) notFound();
  const order = parseTimelineOrder((await searchParams).order);
  const { state, queryClient } = await prefetchPageWithClient((qc, api) => [
    qc.prefetchQuery(apiQuery(api, "/visitors/:id", { params: { id } })),
    qc.prefetchQuery(apiQuery(api, "/visitors/:id/timeline", { params: { id } })),
  ]);
  const error = queryClient.getQueryState(routeKey("/visitors/:id", { id }))?.error;
  if (errorStatus(error) === 404) notFound();
  return (
    <HydrationBoundary state={state}>
      <VisitorClient id={id} order={order} />
    </HydrationBoundary>
  );
}
