// Whether a session's key still works upstream, and whether it may read the resource a store route
// derives from (the score's history derives from the score): the store keeps what the Data API gave,
// so a key revoked upstream, or refused one resource, must not keep writing to the store or reading
// what it kept of that resource for as long as its cookie lives (8 hours). Asked with one cheap
// request, at most once per KEY_RECHECK_MS per key (and per key and resource), and the verdict is
// kept in the server context's verdict store under the key's keyed hash, so with Redis every instance
// reuses one instance's check. The store's one scope (store-scope.ts) acts on it.
import "server-only";
import { isDataApiError } from "@/lib/data-api/errors";
import type { EndpointPath, Endpoints, InputOf } from "@/lib/data-api/endpoints";
import { serverContext } from "./context";
import { getEnv } from "./env";
import { keyId } from "./key-id";
import type { KeyVerdict, KeyVerdictEntry } from "@/lib/shared-state/key-verdicts";
import { dataApiForKey, maskKey } from "./upstream";

/** How long a verdict stands: the longest a key revoked upstream keeps using the store. */
export const KEY_RECHECK_MS = 5 * 60_000;

/**
 * The upstream resources a store route can derive from, each with the cheapest request that asks
 * whether a key may read it (one row, or a body without parameters). `/visitors` is also how the key
 * itself is checked when a route derives from nothing upstream (sign-in's own check).
 */
const PROBES = {
  "/visitors": { query: { limit: 1, offset: 0 } },
  "/mentions": { query: { limit: 1, offset: 0 } },
  "/analytics/overview": { query: { period: "30d" } },
  "/intelligence/score": {},
  "/intelligence/ranking": {},
} satisfies { [P in EndpointPath]?: InputOf<Endpoints[P]> };

export type StoreResource = keyof typeof PROBES;

/** The key's verdict, and the resource's when one was asked for. */
export type KeyStanding = { key: KeyVerdict; resource?: KeyVerdict };

const verdictName = (id: string, resource?: StoreResource) => (resource ? `${id}|${resource}` : id);

/**
 * What the Data API says of `apiKey` (and of its access to `resource`), from a verdict younger than
 * KEY_RECHECK_MS, else asked now: a probe of the resource, or of `/visitors` for the key alone. A 401
 * refuses the key; a 403 refuses the resource and says the key works; an answer says both work.
 * Anything else (429 after retries, 5xx, timeout, unreachable) is `unknown`: the caller lets the
 * request through rather than make the store depend on the Data API being up, and the probe is not
 * repeated before the verdict lapses. Concurrent probes of one key join one upstream request (the
 * client's single flight).
 */
export async function keyStanding(apiKey: string, resource?: StoreResource): Promise<KeyStanding> {
  const store = serverContext().stores.keyVerdicts;
  // The same hash the key's upstream client is known by: one key, one name, on every instance.
  const id = keyId(`${getEnv().dataApiBaseUrl}\n${apiKey}`);
  const [key, ofResource] = await store.get(resource ? [verdictName(id), verdictName(id, resource)] : [verdictName(id)]);
  if (key === "refused" || (key !== undefined && (resource === undefined || ofResource !== undefined))) {
    return resource ? { key, resource: ofResource } : { key };
  }
  const probed = resource ?? "/visitors";
  let standing: Required<KeyStanding>;
  try {
    await dataApiForKey(apiKey).get(probed, PROBES[probed] as never, { fresh: true, keep: false });
    standing = { key: "ok", resource: "ok" };
  } catch (error) {
    if (isDataApiError(error) && error.status === 401) standing = { key: "refused", resource: "unknown" };
    else if (isDataApiError(error) && error.status === 403) standing = { key: "ok", resource: "refused" };
    else {
      const why = isDataApiError(error) ? `${error.status} ${error.code}` : error instanceof Error ? error.name : "failure";
      console.warn(`[key-check] ${maskKey(apiKey)} could not be checked (${why}); let through until the next check`);
      standing = { key: "unknown", resource: "unknown" };
    }
  }
  const entries: KeyVerdictEntry[] = [{ name: verdictName(id), verdict: standing.key }];
  // A probe of /visitors for the key alone also says whether the key may list visitors.
  if (standing.key !== "refused") entries.push({ name: verdictName(id, probed), verdict: standing.resource });
  await store.set(entries, KEY_RECHECK_MS);
  return resource ? standing : { key: standing.key };
}

/** Records that `apiKey` was just seen to work (a sign-in's own check), so its first store request asks nothing again. */
export async function keyJustWorked(apiKey: string): Promise<void> {
  await serverContext().stores.keyVerdicts.set([{ name: verdictName(keyId(`${getEnv().dataApiBaseUrl}\n${apiKey}`)), verdict: "ok" }], KEY_RECHECK_MS);
}
