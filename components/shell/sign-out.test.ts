// @vitest-environment jsdom
// Signing out says "signed out", even when a query still on the wire gets the server's 401 for the
// session just revoked (seen end-to-end: Settings' queries answered 401 between the DELETE and the
// navigation, and the user landed on "your session expired"). Each test loads the modules afresh, as a
// page would (the redirect is once per page). The page's navigations are recorded where they are made
// (lib/ui/hard-navigate.ts), since jsdom does not navigate.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const calls: string[] = [];
const navigations = vi.hoisted(() => [] as string[]);
vi.mock("@/lib/ui/hard-navigate", () => ({ hardNavigate: (path: string) => navigations.push(path) }));

beforeEach(() => vi.resetModules());
afterEach(() => {
  vi.unstubAllGlobals();
  calls.length = 0;
  navigations.length = 0;
});

async function load() {
  const { handleAuthError } = await import("@/lib/queries/auth-redirect");
  const { signOut } = await import("./sign-out");
  return { handleAuthError, signOut };
}

/** The server: each request is recorded, `during` runs while it is on the wire, then it answers `status`. */
function stubServer(status: number, during: () => void = () => undefined) {
  vi.stubGlobal("fetch", async (url: string, init?: RequestInit) => {
    calls.push(`${init?.method ?? "GET"} ${url}`);
    during();
    const body = status === 200 ? { signedIn: false } : { error: { code: "unavailable", message: "down" } };
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  });
}

describe("signOut and the 401 redirect", () => {
  it("a 401 arriving while the sign-out is on the wire does not take it over", async () => {
    const { handleAuthError, signOut } = await load();
    window.history.replaceState(null, "", "/settings");
    let once = false;
    stubServer(200, () => {
      if (once) return;
      once = true;
      handleAuthError({ status: 401 });
    });
    expect(await signOut()).toBe("");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls).toEqual(["DELETE /api/session"]);
    expect(navigations).toEqual(["/sign-in?reason=signed-out"]);
  });

  it("after a failed sign-out the session goes on, and a later 401 still ends it", async () => {
    const { handleAuthError, signOut } = await load();
    window.history.replaceState(null, "", "/settings?tab=alerts");
    stubServer(503);
    expect(await signOut()).toMatch(/Could not sign out/);
    expect(navigations).toEqual([]);
    calls.length = 0;
    stubServer(200);
    handleAuthError({ status: 401 });
    await vi.waitFor(() => expect(navigations).toEqual(["/sign-in?next=%2Fsettings%3Ftab%3Dalerts&reason=expired"]));
    expect(calls).toEqual(["DELETE /api/session"]);
  });

  it("a 401 with no sign-out under way ends the session once; other failures do not", async () => {
    const { handleAuthError } = await load();
    window.history.replaceState(null, "", "/visitors");
    stubServer(200);
    handleAuthError({ status: 500 });
    handleAuthError(new Error("no status"));
    expect(calls).toEqual([]);
    handleAuthError({ status: 401 });
    handleAuthError({ status: 401 });
    await vi.waitFor(() => expect(navigations).toEqual(["/sign-in?next=%2Fvisitors&reason=expired"]));
    expect(calls).toEqual(["DELETE /api/session"]);
  });
});
