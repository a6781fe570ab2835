// The sandbox's fixed, documented demo keys (test keys only; never real secrets). The dashboard's
// sign-in page and every test read them from here or from `GET /sandbox/keys`.

export const DEMO_KEYS = {
  free: "svc_sk_test_demo_free_7f3a9c1e5b2d",
  pro: "svc_sk_test_demo_pro_4e8b2a6c9d1f",
  empty: "svc_sk_test_demo_empty_2c7e5a9b3f1d",
  limited: "svc_sk_test_demo_limited_9a1d4f7c2e6b",
  /** For tests that switch hostile data on for one key (oddRate, echoKey) while others run. */
  odd: "svc_sk_test_demo_odd_6d2f8b4a1c7e",
} as const;

/** A key that "was deleted in the dashboard": always 401 with a message saying it was revoked. */
export const REVOKED_KEY = "svc_sk_test_demo_revoked_5b9e1c3a7d2f";

export type DemoKeyKind = keyof typeof DEMO_KEYS;
export type Plan = "Free" | "Pro";

export type KeyInfo = {
  kind: DemoKeyKind;
  key: string;
  plan: Plan;
  /** Which generated workspace the key reads. */
  workspace: "demo" | "empty";
  /** Limited keys get 403 on the intelligence endpoints and on visitor timelines. */
  limited: boolean;
  description: string;
};

export const KEY_INFO: Record<DemoKeyKind, KeyInfo> = {
  free: {
    kind: "free",
    key: DEMO_KEYS.free,
    plan: "Free",
    workspace: "demo",
    limited: false,
    description: "Free plan (100 requests/minute, 10/second) on the demo workspace",
  },
  pro: {
    kind: "pro",
    key: DEMO_KEYS.pro,
    plan: "Pro",
    workspace: "demo",
    limited: false,
    description: "Pro plan (1,000 requests/minute, 50/second) on the demo workspace",
  },
  empty: {
    kind: "empty",
    key: DEMO_KEYS.empty,
    plan: "Free",
    workspace: "empty",
    limited: false,
    description: "A workspace with no data at all (no visitors, no mentions)",
  },
  limited: {
    kind: "limited",
    key: DEMO_KEYS.limited,
    plan: "Pro",
    workspace: "demo",
    limited: true,
    description: "Demo workspace, but 403 forbidden on /intelligence/* and /visitors/{id}/timeline",
  },
  odd: {
    kind: "odd",
    key: DEMO_KEYS.odd,
    plan: "Pro",
    workspace: "demo",
    limited: false,
    description: "Pro plan on the demo workspace, kept for tests that give one key odd data (fault oddRate / echoKey)",
  },
};

const BY_KEY = new Map<string, KeyInfo>(Object.values(KEY_INFO).map((info) => [info.key, info]));

export const PLAN_LIMITS: Record<Plan, { perMinute: number; perSecond: number }> = {
  Free: { perMinute: 100, perSecond: 10 },
  Pro: { perMinute: 1000, perSecond: 50 },
};

export type AuthResult = { ok: true; info: KeyInfo } | { ok: false; message: string };

/** Checks an Authorization header value; a key in `revoked` (revoked at run time, see server.ts) is refused like REVOKED_KEY. Messages never echo the key. */
export function authenticate(header: string | undefined, revoked: ReadonlySet<string> = new Set()): AuthResult {
  if (!header) return { ok: false, message: "Missing Authorization header; send `Authorization: Bearer <API_KEY>`" };
  // The auth scheme is case-insensitive (RFC 9110); the key itself is not.
  const m = /^Bearer +([A-Za-z0-9_]+)$/i.exec(header.trim());
  if (!m) return { ok: false, message: "Malformed Authorization header; expected `Bearer <API_KEY>`" };
  const key = m[1]!;
  if (key.startsWith("svc_sk_live_")) {
    return { ok: false, message: "Live keys (svc_sk_live_) are not accepted by the sandbox; use a svc_sk_test_ demo key" };
  }
  if (key === REVOKED_KEY || revoked.has(key)) return { ok: false, message: "This API key has been revoked" };
  const info = keyInfo(key);
  if (!info) return { ok: false, message: "Invalid API key" };
  return { ok: true, info };
}

/** The sandbox's own key of that value (a demo key, or one derived from it), or undefined. */
export const keyInfo = (key: string): KeyInfo | undefined => BY_KEY.get(key) ?? derivedKeyInfo(key);

/** A derived key: a demo key, `_x_`, and a label of letters and digits (at most 40). */
const DERIVED_KEY = /^(svc_sk_test_demo_[a-z]+_[0-9a-f]{12})_x_([A-Za-z0-9]{1,40})$/;

/**
 * A key of its own with a demo key's plan and workspace: `deriveDemoKey("pro", "w1")` reads what the
 * Pro key reads, with a rate-limit budget, fault rules and (in the dashboard's store) a workspace of
 * its own. Tests running side by side each take their own, so none spends another's budget or meets
 * another's faults; the dashboard takes it as any other key of that upstream workspace.
 */
export function deriveDemoKey(kind: DemoKeyKind, label: string): string {
  if (!/^[A-Za-z0-9]{1,40}$/.test(label)) throw new Error(`A derived key's label is 1-40 letters or digits, not ${JSON.stringify(label)}`);
  return `${DEMO_KEYS[kind]}_x_${label}`;
}

function derivedKeyInfo(key: string): KeyInfo | undefined {
  const m = DERIVED_KEY.exec(key);
  const base = m ? BY_KEY.get(m[1]!) : undefined;
  return base ? { ...base, key, description: `${base.description}; derived (${m![2]})` } : undefined;
}

/** A key as it may appear in logs: its last 4 characters only. */
export const maskKey = (key: string): string => (key.length > 4 ? `…${key.slice(-4)}` : "…");
