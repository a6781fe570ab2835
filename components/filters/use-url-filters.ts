"use client";
// Filters live in the URL: a change pushes the new query string (history entry, shareable link);
// the server page re-renders with the new parameters and prefetches their data. While that happens
// the current rows stay on screen, marked as pending.
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { nextSearch, type RawSearch } from "@/lib/ui/search-url";

export function useUrlFilters(pathname: string, raw: RawSearch) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const go = (changes: Record<string, string | undefined>, resetOffset = true) => {
    const href = `${pathname}${nextSearch(raw, changes, { resetOffset })}`;
    startTransition(() => router.push(href, { scroll: false }));
  };
  return { pending, setFilters: go, hrefFor: (changes: Record<string, string | undefined>, resetOffset = true) => `${pathname}${nextSearch(raw, changes, { resetOffset })}` };
}
