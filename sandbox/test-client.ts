// Test helper: calls a running sandbox over real HTTP and returns status, headers and parsed body.
import { DEMO_KEYS } from "./keys";
import type { Sandbox } from "./types";
import type { VisitorJson } from "./visitors";

export const TEST_NOW = "2026-11-20T12:00:00Z";

export type ApiResponse<T = unknown> = { status: number; headers: Headers; text: string; body: T };

/** GET `path` (relative to /v1) with a key (default: Pro); `null` sends no Authorization header. */
export async function api<T = Record<string, unknown>>(
  sandbox: Sandbox,
  path: string,
  key: string | null = DEMO_KEYS.pro,
  init: RequestInit = {},
): Promise<ApiResponse<T>> {
  const headers = new Headers(init.headers);
  if (key !== null && !headers.has("authorization")) headers.set("Authorization", `Bearer ${key}`);
  const res = await fetch(sandbox.baseUrl + path, { ...init, headers });
  const text = await res.text();
  let body: unknown = undefined;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: body as T };
}

export type ErrorJson = { error: { code: string; message: string; param?: string; request_id?: string } };
export type ListJson<T> = { data: T[]; meta: { total: number; limit: number; offset: number } };
/** A visitor as the sandbox serves it. */
export type VisitorItem = VisitorJson;

/** Every visitor matching `query`, page by page (Pro key; resets the limiter between pages). */
export async function allVisitors(sandbox: Sandbox, query = ""): Promise<VisitorItem[]> {
  const out: VisitorItem[] = [];
  for (let offset = 0; ; offset += 100) {
    if (offset % 2000 === 0) sandbox.reset();
    const res = await api<ListJson<VisitorItem>>(sandbox, `/visitors?limit=100&offset=${offset}${query ? `&${query}` : ""}`);
    if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${res.text}`);
    out.push(...res.body.data);
    if (offset + 100 >= res.body.meta.total) return out;
  }
}
