// Demo keys of the embedded sandbox. The sandbox serves its demo keys at `GET {origin}/sandbox/keys`;
// the sign-in page offers them by id, and the key itself is resolved here on the server, so even
// demo keys never reach the browser. They are asked for only when the upstream is the sandbox that
// this process's entry started (`npm start` sets runtime-flags' embeddedSandboxOrigin): no other
// upstream is ever asked, whatever it serves. Only test keys (svc_sk_test_) are offered, never a live one.
import "server-only";
import { z } from "zod";
import { getEnv } from "./env";
import { runtimeFlags } from "./runtime-flags";
import { API_KEY_PATTERN } from "./session";

export const DEMO_IDS = ["free", "pro", "empty", "limited"] as const;
export type DemoId = (typeof DEMO_IDS)[number];

export type DemoKey = { id: DemoId; key: string; plan: string; workspace: string; description: string };

const listing = z.object({
  keys: z.array(
    z.looseObject({
      id: z.string().optional(),
      key: z.string(),
      plan: z.string().optional(),
      workspace: z.string().optional(),
      description: z.string().optional(),
    }),
  ),
});

const DEMO_KEY_FORM = /^svc_sk_test_demo_([a-z]+)_/;

const isDemoId = (v: string | undefined): v is DemoId => (DEMO_IDS as readonly string[]).includes(v ?? "");

type Cached = { at: number; baseUrl: string; keys: DemoKey[] | null };
const g = globalThis as typeof globalThis & { __waDemoKeys?: Cached };

const isTestKey = (key: string) => key.startsWith("svc_sk_test_") && API_KEY_PATTERN.test(key);

/** The embedded sandbox's demo keys, or null when the upstream is not the embedded sandbox. */
export async function loadDemoKeys(): Promise<DemoKey[] | null> {
  const { dataApiBaseUrl } = getEnv();
  const embedded = runtimeFlags().embeddedSandboxOrigin;
  if (!embedded || new URL(dataApiBaseUrl).origin !== embedded) return null;
  const cached = g.__waDemoKeys;
  // Known answers are kept for a minute, "none" for ten seconds (the sandbox may still be starting).
  if (cached && cached.baseUrl === dataApiBaseUrl && Date.now() - cached.at < (cached.keys ? 60_000 : 10_000)) return cached.keys;

  let keys: DemoKey[] | null = null;
  try {
    const res = await fetch(`${embedded}/sandbox/keys`, { redirect: "manual", cache: "no-store", signal: AbortSignal.timeout(2000) });
    if (res.ok) {
      const parsed = listing.safeParse(await res.json());
      if (parsed.success) {
        keys = [];
        for (const k of parsed.data.keys) {
          const id = isDemoId(k.id) ? k.id : DEMO_KEY_FORM.exec(k.key)?.[1];
          if (!isDemoId(id) || !isTestKey(k.key) || keys.some((x) => x.id === id)) continue;
          keys.push({ id, key: k.key, plan: k.plan ?? "", workspace: k.workspace ?? "", description: k.description ?? "" });
        }
        if (!keys.length) keys = null;
      }
    }
  } catch {
    keys = null;
  }
  g.__waDemoKeys = { at: Date.now(), baseUrl: dataApiBaseUrl, keys };
  return keys;
}
