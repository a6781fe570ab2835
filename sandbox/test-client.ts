// Test helper: calls a running sandbox over real HTTP and returns status, headers and parsed body.
import { afterAll, beforeAll, beforeEach } from "vitest";
import { DEMO_KEYS } from "./keys";
import { startSandbox } from "./server";
import type { Sandbox, SandboxOptions } from "./types";
import type { VisitorJson } from "./visitors";

export const TEST_NOW = "2026-11-20T12:00:00Z";

/**
 * The sandbox of a test file, on a free port at TEST_NOW: started before the file's tests and closed
 * after them, and back to normal service before each test (no faults, fresh rate-limit windows), so
 * no test sees another's switches. Returns a getter: the sandbox exists once the file's tests run.
 */
export function fileSandbox(options: Partial<Omit<SandboxOptions, "port">> = {}): () => Sandbox {
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, now: TEST_NOW, ...options });
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  beforeEach(() => {
    sandbox!.setFaults({});
    sandbox!.reset();
  });
  return () => {
    if (!sandbox) throw new Error("The file's sandbox starts in beforeAll: read it inside a test");
    return sandbox;
  };
}

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
