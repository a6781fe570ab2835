// Who may do what inside a workspace, as the production build answers it (`npm start`,
// testing/system-setup.ts, on both stores): a key the upstream refuses a resource is refused what the
// store keeps of it (the score's and the ranking's history: 403 in the live widget's words); every
// change is in the activity list with the hint of the key that made it, newest first; and guessing
// keys through linking is refused as at sign-in (429 with Retry-After), per client and per session.
// Each part works in a workspace of a derived key of its own (sandbox/keys.ts).
import { describe, expect, it } from "vitest";
import { deriveDemoKey } from "@/sandbox/keys";
import { apiClient, fromAddress, signIn } from "@/testing/production";
import { expectRefusal, production, signedIn } from "@/testing/system";

const RANGE = "from=2026-11-01&to=2026-11-30&tz=UTC";

describe("a workspace's rules, from the production server", () => {
  it("a key refused the score upstream is refused its kept history, in the live widget's words; a key that may read it reads it", async () => {
    const [limited, full] = await Promise.all([signedIn(deriveDemoKey("limited", "scope")), signedIn(deriveDemoKey("pro", "scope"))]);
    for (const path of ["/api/history/score", "/api/history/ranking"]) {
      const refused = await limited.call<{ error: { message: string } }>("GET", `${path}?${RANGE}`);
      expectRefusal(refused, { status: 403, code: "forbidden" }, path);
    }
    const live = await limited.call<{ error: { message: string } }>("GET", "/api/intelligence/score");
    const kept = await limited.call<{ error: { message: string } }>("GET", `/api/history/score?${RANGE}`);
    expect(kept.body.error.message).toBe(live.body.error.message);
    expect((await full.call("GET", `/api/history/score?${RANGE}`)).status).toBe(200);
  });

  it("every change is in the activity list with the key hint that made it, newest first", async () => {
    const key = deriveDemoKey("pro", "activity");
    const client = await signedIn(key);
    expect((await client.call("PUT", "/api/workspace/watch")).status).toBe(200);
    expect((await client.call("DELETE", "/api/workspace/watch")).status).toBe(200);
    const activity = await client.call<{ data: Array<{ key_hint: string; action: string }> }>("GET", "/api/workspace/activity");
    expect(activity.status).toBe(200);
    expect(activity.body.data.slice(0, 2).map((a) => a.action)).toEqual(["watching.stopped", "watching.started"]);
    for (const entry of activity.body.data) expect(entry.key_hint).toBe(`svc_sk_test_…${key.slice(-4)}`);
    // The full key is nowhere in the answer.
    expect(JSON.stringify(activity.body)).not.toContain(key);
  });

  it("guessed keys through linking are refused as at sign-in: after the client's allowance, 429 with Retry-After", async () => {
    // A client of its own: what it spends is counted for it alone (each file has a client address of its own: testing/system.ts).
    const from = fromAddress("127.0.0.23");
    const client = apiClient(production().base, await signIn(production().base, { apiKey: deriveDemoKey("pro", "guesser") }, from), from);
    const statuses: number[] = [];
    let refused: Awaited<ReturnType<typeof client.call>> | undefined;
    for (let i = 0; i < 15 && !refused; i++) {
      const answer = await client.call("POST", "/api/workspace/keys", { body: { apiKey: `svc_sk_test_guess_${i}_0123456789abcdef` } });
      statuses.push(answer.status);
      if (answer.status === 429) refused = answer;
    }
    expect(statuses.slice(0, -1).every((s) => s === 400)).toBe(true);
    expectRefusal(refused!, { status: 429, code: "too_many_attempts" });
    expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThan(0);
    // Signing in from that client is refused too, before any upstream call: the same allowance.
    await expect(signIn(production().base, { apiKey: deriveDemoKey("pro", "guesser") }, from)).rejects.toThrow(/HTTP 429/);
  });
});
