// The views' URL state, shared by nuqs' adapter (components/providers.tsx) and the links a view
// builds: parameters in sorted order, so a view has one URL however its filters were chosen (and
// the same URLs as before nuqs wrote them).
import { createSerializer, type ParserMap } from "nuqs";

export function sortSearchParams(search: URLSearchParams): URLSearchParams {
  search.sort();
  return search;
}

/** Builds a view's query string (`?a=1&b=2`, or "") from its parsers' values, null values left out. */
export const urlSerializer = <P extends ParserMap>(parsers: P) => createSerializer(parsers, { processUrlSearchParams: sortSearchParams });
