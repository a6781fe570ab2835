// What a saved view may hold, checked once, here, before anything reaches the store (which trusts
// it): a name of one line, 1 to MAX_VIEW_NAME characters after trimming; a page of the app that takes
// a query (lib/ui/page-params.ts), never a visitor's page, Settings or another site; and a query of
// strings naming that page's own parameters only. The values themselves are kept as given and judged
// by the page when the view is opened, exactly as a pasted link would be (a bad date shows on its
// field there). Paging (`limit`, `offset`) is where a reader was in a list, not the view: it is dropped.
import { z } from "zod";
import { MAX_VIEW_NAME } from "@/lib/store/views";
import { isQueryPage, PAGE_PARAMS, PAGING_PARAMS } from "@/lib/ui/page-params";

/** A query value's longest length: a page's parameters are short (dates, codes, a typed intent). */
const MAX_VALUE_LENGTH = 500;

const PAGES = Object.keys(PAGE_PARAMS).join(", ");

/** The name as kept: trimmed, one line, 1 to MAX_VIEW_NAME characters (share links name theirs the same way). */
export const viewName = z.string({ error: "name must be a string: what the view is called." }).transform((raw, ctx) => {
  const name = raw.trim();
  const length = [...name].length;
  const problem =
    length === 0
      ? "name must not be empty: give the view a name."
      : length > MAX_VIEW_NAME
        ? `name must be at most ${MAX_VIEW_NAME} characters (this one has ${length}).`
        : // A line break or another control character would break the header's one-line list.
          /[\u0000-\u001f\u007f]/.test(name)
          ? "name must be one line of text, without control characters."
          : undefined;
  if (problem === undefined) return name;
  ctx.addIssue({ code: "custom", message: problem });
  return z.NEVER;
});

const page = z.unknown().transform((path, ctx) => {
  if (typeof path === "string" && isQueryPage(path)) return path;
  ctx.addIssue({ code: "custom", message: `path must be one of the app's pages that take a query: ${PAGES}.` });
  return z.NEVER;
});

/** The page's own parameters of `query` (paging dropped), or the first problem with it (share links check theirs the same way). */
export function pageQuery(path: keyof typeof PAGE_PARAMS, query: unknown): { query: Record<string, string> } | { problem: string } {
  if (typeof query !== "object" || query === null || Array.isArray(query))
    return { problem: "query must be an object of the page's parameters, each a string." };
  const own: readonly string[] = PAGE_PARAMS[path];
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (!own.includes(name))
      return {
        problem: `query may hold ${path}'s own parameters only (${own.filter((p) => !PAGING_PARAMS.includes(p)).join(", ")}); "${name.slice(0, 40)}" is not one.`,
      };
    if (typeof value !== "string") return { problem: `query.${name} must be a string, as in a link.` };
    if (value.length > MAX_VALUE_LENGTH) return { problem: `query.${name} must be at most ${MAX_VALUE_LENGTH} characters.` };
    if (!PAGING_PARAMS.includes(name)) kept[name] = value;
  }
  return { query: kept };
}

/** POST /api/views {name, path, query}: the view to save, checked field by field in that order. */
export const newView = z.object({ name: viewName, path: page, query: z.unknown() }).transform((view, ctx) => {
  const checked = pageQuery(view.path, view.query);
  if ("problem" in checked) {
    ctx.addIssue({ code: "custom", path: ["query"], message: checked.problem });
    return z.NEVER;
  }
  return { name: view.name, path: view.path, query: checked.query };
});
export const NEW_VIEW_EXAMPLE = '{"name": "…", "path": "/visitors", "query": {"source": "chatgpt"}}';

/** PATCH /api/views/{id} {name}: the new name. */
export const renamedView = z.object({ name: viewName });
export const RENAMED_VIEW_EXAMPLE = '{"name": "…"}';

/** A view's id as the store makes them; anything else is simply not found. */
export const VIEW_ID = {
  pattern: /^view_[A-Za-z0-9_-]{22}$/,
  message: "This workspace has no saved view with that id (it may have been deleted).",
  refusal: "not_found",
} as const;
