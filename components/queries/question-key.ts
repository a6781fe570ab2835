// One question, however it was written: the grouping /queries counts by (the text trimmed and
// lower-cased), so the mentions a row of /queries opens are marked by the same rule that counted them.

/** The key of a question: trimmed and lower-cased; null for a mention without a readable question. */
export function questionKey(query: string | null | undefined): string | null {
  if (typeof query !== "string") return null;
  const key = query.trim().toLowerCase();
  return key === "" ? null : key;
}

/** Whether a mention's question is the highlighted one (same key). */
export const sameQuestion = (query: string | null | undefined, highlight: string | null | undefined): boolean => {
  const a = questionKey(query);
  return a !== null && a === questionKey(highlight);
};
