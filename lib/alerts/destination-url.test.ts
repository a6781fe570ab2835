// Which addresses alerts may go to, with names resolved by a name server on loopback (testing/name-server.ts):
// IPv6 addresses that carry an IPv4 one judged by the IPv4 inside; a name whose addresses are not all
// public refused without naming them; the lookup a request connects with being the checked one (the
// request reaches a receiver only through an address the check passed); Slack destinations only at
// Slack's incoming webhooks.
import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { checkedLookup, checkResolved, checkSlackWebhookUrl, DestinationRefused, isPublicAddress, parseDestinationUrl } from "./destination-url";
import { createNameResolver } from "./resolve-name";
import { startDnsServer, type DnsServer } from "@/testing/name-server";
import { startReceiver, type Receiver } from "@/testing/webhook-receiver";

const cleanup: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((c) => c.close()));
});

const RECORDS = {
  "public.example.com": { A: ["93.184.216.34"], AAAA: ["2606:2800:220:1:248:1893:25c8:1946"] },
  "internal.example.com": { A: ["10.20.30.40"] },
  "half.example.com": { A: ["93.184.216.34"], AAAA: ["fd12:3456::7"] },
  "mapped.example.com": { AAAA: ["::ffff:169.254.169.254"] },
  "loopback.example.com": { A: ["127.0.0.1"] },
};

async function resolverWithDns(): Promise<{ dns: DnsServer; resolver: ReturnType<typeof createNameResolver> }> {
  const dns = await startDnsServer(RECORDS);
  cleanup.push(dns);
  return { dns, resolver: createNameResolver({ servers: [dns.address], hostsFile: null }) };
}

/** The refusal's message, or a failure when `run` was not refused. */
async function refusal(run: () => unknown): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (error instanceof DestinationRefused) return error.message;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("which addresses alerts may be sent to", () => {
  it.each([
    ["8.8.8.8", true],
    ["2606:4700:4700::1111", true],
    ["10.0.0.1", false],
    ["100.64.0.1", false],
    ["169.254.169.254", false],
    ["::1", false],
    ["fe80::1", false],
    ["fd00::1", false],
    // IPv4-mapped and IPv4-compatible: the IPv4 inside decides.
    ["::ffff:127.0.0.1", false],
    ["::ffff:8.8.8.8", true],
    ["::7f00:1", false],
    ["::a00:1", false],
    ["::808:808", true],
    // IPv4-translated (SIIT) and NAT64's well-known prefix.
    ["::ffff:0:7f00:1", false],
    ["64:ff9b::a9fe:a9fe", false],
    ["64:ff9b::808:808", true],
    // NAT64 for local use: wherever its operator translates to.
    ["64:ff9b:1::808:808", false],
    // 6to4: the relay's IPv4 in bits 16-47.
    ["2002:c0a8:101::1", false],
    ["2002:808:808::1", true],
    // Teredo: its server, and its client with the bits inverted (here 10.0.0.1).
    ["2001:0:808:808::f5ff:fffe", false],
    ["2001:0:808:808::f7f7:f7f7", true],
    ["2001:db8::1", false],
  ])("%s public: %s", (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it("a URL's literal IPv6 address carrying a private IPv4 one is refused, naming what was typed", () => {
    for (const url of ["https://[::7f00:1]/hook", "https://[::ffff:127.0.0.1]/hook", "https://[64:ff9b::a00:1]/hook", "https://[2002:7f00:1::]/hook"]) {
      expect(() => parseDestinationUrl(url, false), url).toThrow(DestinationRefused);
      expect(parseDestinationUrl(url, true).toString()).toBe(new URL(url).toString());
    }
    expect(() => parseDestinationUrl("https://[::7f00:1]/hook", false)).toThrow(/\(::7f00:1\)/);
  });

  it("a name is checked by every address it resolves to, and a refusal never says what they are", async () => {
    const { resolver } = await resolverWithDns();
    expect(await checkResolved("public.example.com", false, resolver)).toEqual(["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"]);
    for (const [name, addresses] of [
      ["internal.example.com", ["10.20.30.40"]],
      ["half.example.com", ["93.184.216.34", "fd12:3456::7"]],
      ["mapped.example.com", ["::ffff:169.254.169.254", "::ffff:a9fe:a9fe", "169.254.169.254"]],
    ] as const) {
      const message = await refusal(() => checkResolved(name, false, resolver));
      expect(message).toContain(name);
      expect(message).toMatch(/private, loopback or otherwise reserved/);
      for (const address of addresses) expect(message).not.toContain(address);
    }
    // An unknown name is said as such (not as a private one), also without an address.
    expect(await refusal(() => checkResolved("missing.example.com", false, resolver))).toBe("the name missing.example.com has no address.");
    // Allowed private addresses: the name's own.
    expect(await checkResolved("internal.example.com", true, resolver)).toEqual(["10.20.30.40"]);
  });

  it("localhost is loopback without asking DNS: refused unless private addresses are allowed", async () => {
    const silent = await startDnsServer("silent");
    cleanup.push(silent);
    const resolver = createNameResolver({ servers: [silent.address], hostsFile: null });
    const started = performance.now();
    expect(await refusal(() => checkResolved("localhost", false, resolver))).toMatch(/^the name localhost resolves to a private, loopback/);
    expect(await checkResolved("localhost", true, resolver)).toEqual(["127.0.0.1", "::1"]);
    expect(performance.now() - started).toBeLessThan(500);
    expect(silent.questions).toEqual([]);
  });

  it("a request connects through the checked lookup: a name resolving to loopback reaches the receiver only when allowed", async () => {
    const { dns, resolver } = await resolverWithDns();
    const receiver: Receiver = await startReceiver();
    cleanup.push(receiver);
    const port = new URL(receiver.url).port;
    const post = (allowPrivate: boolean) =>
      new Promise<{ status: number } | { error: NodeJS.ErrnoException }>((resolve) => {
        const request = http.request(`http://loopback.example.com:${port}/hooks`, {
          method: "POST",
          agent: false,
          lookup: checkedLookup(allowPrivate, resolver) as unknown as typeof import("node:dns").lookup,
        });
        request.on("response", (response) => {
          response.resume();
          resolve({ status: response.statusCode ?? 0 });
        });
        request.on("error", (error: NodeJS.ErrnoException) => resolve({ error }));
        request.end("{}");
      });

    const refused = await post(false);
    expect(refused).toMatchObject({ error: { code: "EREFUSED", message: expect.stringMatching(/^the name loopback\.example\.com resolves to a private/) } });
    expect("error" in refused && refused.error.message).not.toContain("127.0.0.1");
    expect(receiver.received).toHaveLength(0);

    expect(await post(true)).toEqual({ status: 200 });
    expect(receiver.received.map((r) => r.path)).toEqual(["/hooks"]);
    // Both were resolved by the name server the resolver was given, not by the system's getaddrinfo.
    expect(dns.questions.filter((q) => q.name === "loopback.example.com" && q.type === "A")).toHaveLength(2);
  });
});

describe("Slack destinations", () => {
  it("only Slack's incoming webhooks are accepted", () => {
    const ok = "https://hooks.slack.com/services/T0001/B0002/XXXXXXXXXXXXXXXXXXXXXXXX";
    expect(checkSlackWebhookUrl(new URL(ok)).toString()).toBe(ok);
    for (const url of [
      "https://example.com/services/T0001/B0002/XXXX",
      "http://hooks.slack.com/services/T0001/B0002/XXXX",
      "https://hooks.slack.com.evil.example/services/T0001/B0002/XXXX",
      "https://evil.example/?hooks.slack.com/services/T0001/B0002/XXXX",
      "https://user:pass@hooks.slack.com/services/T0001/B0002/XXXX",
      "https://hooks.slack.com:8443/services/T0001/B0002/XXXX",
      "https://hooks.slack.com/workflows/T0001/A0002/123/abc",
      "https://hooks.slack.com/services/",
      "https://hooks.slack.com/services/T0001/../../other",
    ]) {
      expect(() => checkSlackWebhookUrl(new URL(url)), url).toThrow(
        /^url must be the Slack incoming webhook's address, https:\/\/hooks\.slack\.com\/services\/…/,
      );
    }
  });
});
