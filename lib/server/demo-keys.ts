// Demo keys of the embedded sandbox. When the upstream is the sandbox it serves its demo keys at
// `GET {origin}/sandbox/keys`; the sign-in page offers them by id, and the key itself is resolved
// here on the server, so even demo keys never reach the browser. A real Data API has no such
// endpoint and the demo offer simply does not appear.
import "server-only";
import { z } from "zod";
import { getEnv } from "./env";

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

/** The sandbox's demo keys, or null when the upstream does not offer any (a real Data API). */
export async function loadDemoKeys(): Promise<DemoKey[] | null> {
  const { dataApiBaseUrl } = getEnv();
  const cached = g.__waDemoKeys;
  // Known answers are kept for a minute, "none" for ten seconds (the sandbox may still be starting).
  if (cached && cached.baseUrl === dataApiBaseUrl && Date.now() - cached.at < (cached.keys ? 60_000 : 10_000)) return cached.keys;

  let keys: DemoKey[] | null = null;
  try {
    const origin = new URL(dataApiBaseUrl).origin;
    const res = await fetch(`${origin}/sandbox/keys`, { redirect: "manual", cache: "no-store", signal: AbortSignal.timeout(2000) });
    if (res.ok) {
      const parsed = listing.safeParse(await res.json());
      if (parsed.success) {
        keys = [];
        for (const k of parsed.data.keys) {
          const id = isDemoId(k.id) ? k.id : DEMO_KEY_FORM.exec(k.key)?.[1];
          if (!isDemoId(id) || keys.some((x) => x.id === id)) continue;
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
