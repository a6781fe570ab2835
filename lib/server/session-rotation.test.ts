// Rotating SESSION_SECRET: with SESSION_SECRET_PREVIOUS set, cookies sealed under the previous secret
// still open (and say so), new ones are sealed under the new secret, two rotations in a row keep
// working, cookies from before (iron-session's single-password seal) still open, and a page request
// gets its cookie back sealed under the new secret: the same session, which a sign-out still ends.
import { sealData } from "iron-session";
import { NextRequest } from "next/server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { proxy } from "@/proxy";
import { SESSION_COOKIE, SESSION_TTL_SECONDS, revokeSession, sealSession, unsealSession } from "./session";

const OLD = "the-old-session-secret-0123456789abcdefgh";
const MID = "the-mid-session-secret-0123456789abcdefgh";
const NEW = "the-new-session-secret-0123456789abcdefgh";
const KEY = "svc_sk_test_rotation_0123456789abcdef";

function secrets(current: string, previous?: string): void {
  process.env.SESSION_SECRET = current;
  if (previous) process.env.SESSION_SECRET_PREVIOUS = previous;
  else delete process.env.SESSION_SECRET_PREVIOUS;
}

beforeEach(() => {
  process.env.DATA_API_BASE_URL = "http://127.0.0.1:9/v1";
});
afterEach(() => {
  delete process.env.SESSION_SECRET_PREVIOUS;
});

describe("session secret rotation", () => {
  it("a cookie of the previous secret opens during the rotation only, and says it was sealed under it", async () => {
    secrets(OLD);
    const cookie = await sealSession(KEY, 1000);
    const before = await unsealSession(cookie);
    expect(before).toMatchObject({ apiKey: KEY, rateLimit: 1000 });
    expect(before).not.toHaveProperty("sealedWithPrevious");

    secrets(NEW);
    expect(await unsealSession(cookie)).toBeNull();
    secrets(NEW, OLD);
    expect(await unsealSession(cookie)).toEqual({ ...before, sealedWithPrevious: true });
  });

  it("new cookies are sealed under the new secret, and keep opening after the rotation ends and through the next one", async () => {
    secrets(MID, OLD);
    const cookie = await sealSession(KEY);
    expect(await unsealSession(cookie)).not.toHaveProperty("sealedWithPrevious");
    secrets(MID);
    expect(await unsealSession(cookie)).toMatchObject({ apiKey: KEY });
    secrets(OLD);
    expect(await unsealSession(cookie)).toBeNull();
    // The next rotation: MID is now the previous secret.
    secrets(NEW, MID);
    expect(await unsealSession(cookie)).toMatchObject({ apiKey: KEY, sealedWithPrevious: true });
    // A cookie sealed before any rotation by MID (no previous then) too.
    secrets(MID);
    const plain = await sealSession(KEY);
    secrets(NEW, MID);
    expect(await unsealSession(plain)).toMatchObject({ apiKey: KEY, sealedWithPrevious: true });
  });

  it("a cookie sealed the way it always was (one password) opens under the same secret", async () => {
    secrets(OLD);
    const legacy = await sealData({ apiKey: KEY, iat: Date.now(), sid: "0123456789abcdef0123" }, { password: OLD, ttl: SESSION_TTL_SECONDS });
    expect(await unsealSession(legacy)).toMatchObject({ apiKey: KEY, sessionId: "0123456789abcdef0123" });
    expect(await sealSession(KEY)).toMatch(/^Fe26\.2\*1\*/);
  });

  it("a page request returns the cookie sealed under the new secret: the same session, still revocable", async () => {
    secrets(OLD);
    const cookie = await sealSession(KEY, 60);
    const session = (await unsealSession(cookie))!;
    secrets(NEW, OLD);

    const page = (value: string) => proxy(new NextRequest("http://localhost:3000/visitors", { headers: { cookie: `${SESSION_COOKIE}=${value}` } }));
    const response = await page(cookie);
    expect(response.headers.get("location")).toBeNull();
    const setCookie = response.headers.get("set-cookie") ?? "";
    const resealed = new RegExp(`^${SESSION_COOKIE}=([^;]+);`).exec(setCookie)?.[1];
    expect(resealed).toBeDefined();
    expect(setCookie).toMatch(/; HttpOnly; SameSite=Lax; Max-Age=(\d+)/);
    const maxAge = Number(/Max-Age=(\d+)/.exec(setCookie)![1]);
    expect(maxAge).toBeGreaterThan(SESSION_TTL_SECONDS - 60);
    expect(maxAge).toBeLessThanOrEqual(SESSION_TTL_SECONDS);

    // Opens with the new secret alone, as the same session.
    secrets(NEW);
    const after = await unsealSession(resealed!);
    expect(after).toEqual({ ...session });
    // A cookie already under the new secret is left alone.
    secrets(NEW, OLD);
    expect((await page(resealed!)).headers.get("set-cookie")).toBeNull();

    // Signing out ends both copies: they are one session.
    await revokeSession(after!);
    expect(await unsealSession(resealed!)).toBeNull();
    expect(await unsealSession(cookie)).toBeNull();
  });
});
