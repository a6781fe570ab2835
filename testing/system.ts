// What a system test (*.system.test.ts) works with: the one production server testing/system-setup.ts
// started for the layer, the workspace each file works in, clients calling the server as the app's
// pages do (signed in with a sandbox key, or signed out), and the assertion of a refusal.
import { expect, inject } from "vitest";
import { DEMO_KEYS } from "../sandbox/keys";
import { apiClient, fromAddress, signIn, type Answer, type ApiClient, type ErrorBody } from "./production";

/**
 * The key (and so the workspace) of each file: the files share one server and its store, and fill
 * their workspace up to its bounds, so no two of them work in the same one. All but `empty` read the
 * sandbox's demo workspace upstream. `linking` also tries to link `views`' key and `writeRoutes`' key
 * into its own, which is refused and changes neither. The other files take keys derived from a demo
 * key with a label of their own (`deriveDemoKey`), each a workspace and a budget of its own.
 */
export const WORKSPACE_KEYS = {
  views: DEMO_KEYS.free,
  notes: DEMO_KEYS.pro,
  alerts: DEMO_KEYS.limited,
  linking: DEMO_KEYS.odd,
  writeRoutes: DEMO_KEYS.empty,
} as const;

/** An Origin no page of this app has: what a write started by another site carries. */
export const OTHER_SITE = "https://elsewhere.example";

/** The layer's production server. */
export const production = () => inject("production");

/**
 * This file's client: a loopback address of its own (127.1.x.y, drawn when the file loads; each file
 * loads this module afresh), for the sign-ins and the requests of `signedIn` and `signedOut`. What
 * the server counts per client (failed sign-ins, keys tried through linking: 10 a minute) is then
 * each file's own, however the files are ordered: a file refused from another site on every write
 * route no longer spends the allowance of the file that runs next.
 */
const FILE_CLIENT = fromAddress(`127.1.${1 + Math.floor(Math.random() * 254)}.${1 + Math.floor(Math.random() * 254)}`);

/** A client signed in with `apiKey` (one of the sandbox's keys) through POST /api/session. */
export async function signedIn(apiKey: string): Promise<ApiClient> {
  const { base } = production();
  return apiClient(base, await signIn(base, { apiKey }, FILE_CLIENT), FILE_CLIENT);
}

/** A client without a session (still this app's own Origin). */
export const signedOut = (): ApiClient => apiClient(production().base, undefined, FILE_CLIENT);

/** A refusal as the contract names it: the status, the error shape's code, and the field it names (if any). */
export type Refusal = { status: number; code: string; param?: string };

/** `answer` is that refusal, in the shared error shape with a message for people. */
export function expectRefusal(answer: Answer, expected: Refusal, label = ""): void {
  const body = answer.body as Partial<ErrorBody> | null;
  expect({ status: answer.status, code: body?.error?.code, param: body?.error?.param }, label).toEqual({ param: undefined, ...expected });
  expect(body?.error?.message, label).toMatch(/\S/);
}

/** Runs `make(i)` for i in 0..count-1, `concurrency` at a time (a workspace filled up to its bound quickly). */
export async function inParallel<T>(count: number, concurrency: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      out[i] = await make(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return out;
}
