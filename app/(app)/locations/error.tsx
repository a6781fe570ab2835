"use client";
// The page failed to render (its widgets fail on their own, inside it): say so, with a retry.
export { PageError as default } from "@/components/states/page-states";
