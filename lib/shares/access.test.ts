// A share link's secrets: tokens random and of the form the routes accept; passwords kept as salted
// scrypt hashes that only the right password matches; the unlock cookie bound to its link, its
// password and its 24 hours, under either secret of a rotation; 5 wrong tries per link and client.
import { describe, expect, it } from "vitest";
import {
  createUnlockThrottle,
  hashSharePassword,
  newShareToken,
  sharePasswordMatches,
  UNLOCK_TRIES,
  UNLOCK_TTL_MS,
  unlockCookieName,
  unlockCookieOpens,
  unlockCookieValue,
} from "./access";
import { SHARE_TOKEN_PATTERN } from "./pages";

const SECRET = "share-access-test-secret-0123456789abcdef";
const PREVIOUS = "share-access-test-previous-0123456789abcd";

describe("share tokens", () => {
  it("are 192 random bits in the form the routes accept, never twice the same", () => {
    const tokens = new Set([...Array(1000)].map(() => newShareToken()));
    expect(tokens.size).toBe(1000);
    for (const t of tokens) expect(t).toMatch(SHARE_TOKEN_PATTERN);
  });
});

describe("share passwords", () => {
  it("are kept as salted scrypt hashes that only the password matches", async () => {
    const [one, two] = await Promise.all([hashSharePassword("correct horse"), hashSharePassword("correct horse")]);
    expect(one).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(one).not.toBe(two);
    expect(one).not.toContain("correct horse");
    expect(await sharePasswordMatches("correct horse", one)).toBe(true);
    expect(await sharePasswordMatches("correct horse", two)).toBe(true);
    expect(await sharePasswordMatches("Correct horse", one)).toBe(false);
    expect(await sharePasswordMatches("", one)).toBe(false);
    // The same text in another Unicode form is the same password.
    const composed = await hashSharePassword("caf\u00e9 au lait");
    expect(await sharePasswordMatches("cafe\u0301 au lait", composed)).toBe(true);
  });

  it("a hash it cannot read matches nothing, and costs out of bounds are not run", async () => {
    for (const kept of ["", "bcrypt$x", "scrypt$16384$8$1$$", "scrypt$1073741824$8$1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaA"])
      expect(await sharePasswordMatches("anything", kept)).toBe(false);
  });
});

describe("the unlock cookie", () => {
  const share = { id: "shr_AAAAAAAAAAAAAAAAAAAAAA", passwordHash: "scrypt$16384$8$1$salt$hash" };
  const now = 1_800_000_000_000;

  it("opens its link for 24 hours, under the current or the previous secret", () => {
    const value = unlockCookieValue(SECRET, share, now);
    expect(unlockCookieName(share.id)).toBe("wa_share_AAAAAAAAAAAAAAAAAAAAAA");
    expect(unlockCookieOpens(value, [SECRET], share, now)).toBe(true);
    expect(unlockCookieOpens(value, [SECRET], share, now + UNLOCK_TTL_MS - 1)).toBe(true);
    expect(unlockCookieOpens(value, [SECRET], share, now + UNLOCK_TTL_MS)).toBe(false);
    expect(unlockCookieOpens(value, ["another-secret-0123456789abcdefghijkl", SECRET], share, now)).toBe(true);
    expect(unlockCookieOpens(unlockCookieValue(PREVIOUS, share, now), [SECRET, PREVIOUS], share, now)).toBe(true);
  });

  it("opens nothing else: another link, a changed password, another secret, a forged or stretched value", () => {
    const value = unlockCookieValue(SECRET, share, now);
    const [until, mac] = value.split(".");
    expect(unlockCookieOpens(value, [SECRET], { ...share, id: "shr_BBBBBBBBBBBBBBBBBBBBBB" }, now)).toBe(false);
    expect(unlockCookieOpens(value, [SECRET], { ...share, passwordHash: "scrypt$16384$8$1$salt$other" }, now)).toBe(false);
    expect(unlockCookieOpens(value, [PREVIOUS], share, now)).toBe(false);
    expect(unlockCookieOpens(`${Number(until) + 1000}.${mac}`, [SECRET], share, now)).toBe(false);
    expect(unlockCookieOpens(`${until}.${mac!.slice(0, -1)}A`, [SECRET], share, now)).toBe(false);
    for (const odd of [undefined, "", "x", ".", `${until}.`, `NaN.${mac}`]) expect(unlockCookieOpens(odd, [SECRET], share, now)).toBe(false);
  });
});

describe("the unlock throttle", () => {
  it(`lets ${UNLOCK_TRIES} wrong tries through per link and client, then says how long to wait; a right one gives its try back`, async () => {
    const throttle = createUnlockThrottle();
    const client = "share:shr_A|203.0.113.9";
    expect(await throttle.begin(client)).toBe(0);
    await throttle.succeeded(client);
    for (let i = 0; i < UNLOCK_TRIES; i++) expect(await throttle.begin(client)).toBe(0);
    const wait = await throttle.begin(client);
    expect(wait).toBeGreaterThan(14 * 60);
    expect(wait).toBeLessThanOrEqual(15 * 60);
    // Another client, or another link, counts on its own.
    expect(await throttle.begin("share:shr_A|198.51.100.7")).toBe(0);
    expect(await throttle.begin("share:shr_B|203.0.113.9")).toBe(0);
  });
});
