// Resolving destination names off the thread pool, against name servers on loopback (testing/name-server.ts):
// one that never answers (the deadline holds, the process's own dns.lookup stays fast while 50 such
// lookups hang, a lookup that cannot start in time fails as a timeout, one beyond the queue at once)
// and one that answers (A and AAAA together, an unknown name). localhost and the hosts file answer
// without asking DNS at all.
import { pbkdf2 } from "node:crypto";
import dns from "node:dns";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createNameResolver, isNameNotResolved, parseHostsFile, type NotResolvedReason } from "./resolve-name";
import { startDnsServer, type DnsServer } from "@/testing/name-server";

const servers: DnsServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function dnsServer(records: Parameters<typeof startDnsServer>[0]) {
  const server = await startDnsServer(records);
  servers.push(server);
  return server;
}

/** How a lookup ended: its addresses, or why not, and when (ms after the start). */
async function outcome(lookup: Promise<string[]>, started: number): Promise<{ ms: number; addresses?: string[]; reason?: NotResolvedReason }> {
  try {
    const addresses = await lookup;
    return { ms: performance.now() - started, addresses };
  } catch (error) {
    if (!isNameNotResolved(error)) throw error;
    return { ms: performance.now() - started, reason: error.reason };
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

describe("destination names resolved with c-ares", () => {
  it("while 50 names hang on a silent name server, each fails at the 2 s deadline and the process's dns.lookup('localhost') stays fast", async () => {
    const silent = await dnsServer("silent");
    const resolver = createNameResolver({ servers: [silent.address], hostsFile: null });
    const started = performance.now();
    const lookups = Array.from({ length: 50 }, (_, i) => outcome(resolver.resolve(`hang-${i}.example.com`), started));
    await new Promise((r) => setImmediate(r));
    expect(resolver.load()).toEqual({ running: 8, waiting: 42 });

    // dns.lookup is getaddrinfo on the thread pool: had the lookups above been made with it, these
    // would wait for the 10-20 s a hung getaddrinfo holds a thread.
    const localhost: number[] = [];
    while (performance.now() - started < 1_500) {
      const t = performance.now();
      await dns.promises.lookup("localhost");
      localhost.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 20));
    }
    localhost.sort((a, b) => a - b);
    expect(localhost.length).toBeGreaterThan(20);
    expect(percentile(localhost, 99)).toBeLessThan(250);

    const ended = await Promise.all(lookups);
    expect(ended.every((o) => o.reason === "timeout")).toBe(true);
    for (const o of ended) {
      // c-ares may give up on its own a little before the deadline (its tries ran out); never later.
      expect(o.ms).toBeGreaterThanOrEqual(1_500);
      expect(o.ms).toBeLessThan(2_500);
    }
    // They really were asked of the silent server (not refused before trying).
    expect(new Set(silent.questions.map((q) => q.name)).size).toBeGreaterThanOrEqual(8);
    expect(resolver.load()).toEqual({ running: 0, waiting: 0 });
  });

  it("answers while every thread of libuv's pool is busy (it does not queue there, as dns.lookup would)", async () => {
    const server = await dnsServer({ "receiver.example.com": { A: ["93.184.216.34"] } });
    const dir = mkdtempSync(path.join(tmpdir(), "wa-hosts-"));
    try {
      const hostsFile = path.join(dir, "hosts");
      writeFileSync(hostsFile, "10.9.8.7 receiver.internal\n");
      const resolver = createNameResolver({ servers: [server.address], hostsFile });
      // Each pbkdf2 holds a pool thread for a second or so; one per thread (4 unless UV_THREADPOOL_SIZE says otherwise).
      const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
      let busyDone = 0;
      const busy = Array.from(
        { length: threads },
        () => new Promise<void>((resolve) => pbkdf2("x", "salt", 2_000_000, 32, "sha256", () => (busyDone++, resolve()))),
      );
      const started = performance.now();
      expect(await resolver.resolve("receiver.example.com")).toEqual(["93.184.216.34"]);
      expect(await resolver.resolve("receiver.internal")).toEqual(["10.9.8.7"]);
      const took = performance.now() - started;
      expect(busyDone).toBe(0);
      expect(took).toBeLessThan(200);
      await Promise.all(busy);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a lookup that cannot start before its deadline fails as a timeout; one beyond the queue fails at once; a freed slot serves the next", async () => {
    const silent = await dnsServer("silent");
    const resolver = createNameResolver({ servers: [silent.address], hostsFile: null, deadlineMs: 300, concurrency: 1, maxWaiting: 1 });
    const started = performance.now();
    const running = outcome(resolver.resolve("first.example.com"), started);
    const waiting = outcome(resolver.resolve("second.example.com"), started);
    const beyond = await outcome(resolver.resolve("third.example.com"), started);
    expect(beyond.reason).toBe("busy");
    expect(beyond.ms).toBeLessThan(50);
    const [first, second] = await Promise.all([running, waiting]);
    expect(first).toMatchObject({ reason: "timeout" });
    expect(second).toMatchObject({ reason: "timeout" });
    expect(second.ms).toBeLessThan(450);
    expect(silent.questions.map((q) => q.name)).not.toContain("second.example.com");

    // The slot of the cancelled lookup is free again: the next one is asked.
    await outcome(resolver.resolve("fourth.example.com"), performance.now());
    expect(silent.questions.map((q) => q.name)).toContain("fourth.example.com");
  });

  it("asks A and AAAA together, IPv4 first; an unknown name or one without records has no address", async () => {
    const server = await dnsServer({
      "both.example.com": { A: ["93.184.216.34"], AAAA: ["2606:2800:220:1::1"] },
      "v6.example.com": { AAAA: ["2606:2800:220:1::2"] },
      "empty.example.com": {},
    });
    const resolver = createNameResolver({ servers: [server.address], hostsFile: null });
    expect(await resolver.resolve("Both.Example.com.")).toEqual(["93.184.216.34", "2606:2800:220:1::1"]);
    expect(await resolver.resolve("v6.example.com")).toEqual(["2606:2800:220:1::2"]);
    const t = performance.now();
    expect(await outcome(resolver.resolve("missing.example.com"), t)).toMatchObject({ reason: "not_found" });
    expect(await outcome(resolver.resolve("empty.example.com"), t)).toMatchObject({ reason: "not_found" });
  });

  it("localhost and names in the hosts file answer without DNS, as getaddrinfo would", async () => {
    const silent = await dnsServer("silent");
    const dir = mkdtempSync(path.join(tmpdir(), "wa-hosts-"));
    try {
      const hostsFile = path.join(dir, "hosts");
      writeFileSync(
        hostsFile,
        "# a comment\n127.0.0.1 localhost\n10.9.8.7   receiver.internal Receiver-Alias # trailing\n::1 ip6-localhost\nfe80::1%eth0 zoned\n",
      );
      const resolver = createNameResolver({ servers: [silent.address], hostsFile });
      const started = performance.now();
      expect(await resolver.resolve("localhost")).toEqual(["127.0.0.1", "::1"]);
      expect(await resolver.resolve("api.localhost")).toEqual(["127.0.0.1", "::1"]);
      expect(await resolver.resolve("receiver.internal")).toEqual(["10.9.8.7"]);
      expect(await resolver.resolve("receiver-alias")).toEqual(["10.9.8.7"]);
      expect(performance.now() - started).toBeLessThan(500);
      expect(silent.questions).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const parsed = parseHostsFile("10.0.0.1 a b\n10.0.0.2 a\nnot-an-address c\nfe80::1%eth0 zoned\n");
    expect(parsed.get("a")).toEqual(["10.0.0.1", "10.0.0.2"]);
    expect([...parsed.keys()]).toEqual(["a", "b"]);
  });
});
