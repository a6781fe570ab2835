import { afterEach, describe, expect, it } from "vitest";
import { clientKey, parseTrustedProxies, PEER_ADDRESS_HEADER, resolveClientAddress, UNKNOWN_CLIENT } from "./client-address";
import { runtimeFlags, setRuntimeFlags } from "./runtime-flags";

const saved = runtimeFlags();
afterEach(() => setRuntimeFlags(saved));

const resolve = (peer: string, xff: string | null, trusted = "") => resolveClientAddress(peer, xff, parseTrustedProxies(trusted))?.toString();

describe("client address", () => {
  it("without trusted proxies: the socket address, whatever X-Forwarded-For says", () => {
    expect(resolve("198.51.100.7", "203.0.113.1")).toBe("198.51.100.7");
    expect(resolve("::ffff:198.51.100.7", "203.0.113.1, 10.0.0.1")).toBe("198.51.100.7");
  });

  it("behind trusted proxies: the right-most X-Forwarded-For address that is not one", () => {
    // The client forged "1.1.1.1"; the edge proxy appended the real client, the inner proxy the edge.
    expect(resolve("10.0.0.2", "1.1.1.1, 203.0.113.9, 10.0.0.1", "10.0.0.0/8")).toBe("203.0.113.9");
    expect(resolve("10.0.0.2", "1.1.1.1, 203.0.113.9", "10.0.0.2")).toBe("203.0.113.9");
    expect(resolve("::1", "2001:db8::5", "::1")).toBe("2001:db8::5");
    expect(resolve("127.0.0.1", "203.0.113.9", "::ffff:127.0.0.0/104")).toBe("203.0.113.9");
  });

  it("a peer that is not a trusted proxy is the client even when proxies are configured", () => {
    expect(resolve("198.51.100.7", "203.0.113.9", "10.0.0.0/8")).toBe("198.51.100.7");
  });

  it("all hops trusted: the left-most; garbage stops the walk at the last believable hop", () => {
    expect(resolve("10.0.0.2", "10.0.0.3, 10.0.0.1", "10.0.0.0/8")).toBe("10.0.0.3");
    expect(resolve("10.0.0.2", "nonsense, 10.0.0.1", "10.0.0.0/8")).toBe("10.0.0.1");
    expect(resolve("10.0.0.2", null, "10.0.0.0/8")).toBe("10.0.0.2");
  });

  it("TRUSTED_PROXIES: IPs and CIDRs of both families; a bad entry is named", () => {
    expect(parseTrustedProxies(" 10.0.0.0/8, 192.168.1.1 ,2001:db8::/32,::1 ")).toHaveLength(4);
    expect(parseTrustedProxies("")).toEqual([]);
    expect(() => parseTrustedProxies("10.0.0.0/8,proxy.internal")).toThrow(/"proxy.internal"/);
    expect(() => parseTrustedProxies("10.0.0.0/33")).toThrow(/10.0.0.0\/33/);
  });

  it("keys IPv6 clients by /64 and IPv4 by address", () => {
    setRuntimeFlags({ frontServer: true });
    const key = (peer: string) => clientKey(new Request("http://x/", { headers: { [PEER_ADDRESS_HEADER]: peer } }), []);
    expect(key("2001:db8:1:2:aaaa::1")).toBe(key("2001:db8:1:2:ffff:ffff:ffff:ffff"));
    expect(key("2001:db8:1:2::1")).not.toBe(key("2001:db8:1:3::1"));
    expect(key("198.51.100.7")).toBe("198.51.100.7");
  });

  it("believes the peer header only behind the front server", () => {
    const req = new Request("http://x/", { headers: { [PEER_ADDRESS_HEADER]: "198.51.100.7", "x-forwarded-for": "203.0.113.1" } });
    setRuntimeFlags({ frontServer: false });
    expect(clientKey(req, [])).toBe(UNKNOWN_CLIENT);
    setRuntimeFlags({ frontServer: true });
    expect(clientKey(req, [])).toBe("198.51.100.7");
  });
});
