// The shipped Compose setup (compose.yaml, nginx.conf), read from the files themselves (there is no
// Docker here to run it): the instances believe X-Forwarded-For from the load balancer's own address
// only, nginx replaces whatever X-Forwarded-For a client sends with the address it sees, and nginx
// closes idle upstream connections before the instances do. The client-address logic then runs with
// the Compose file's TRUSTED_PROXIES on what nginx, as configured, would send for forged headers.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { clientKeyOf, parseAddress, parseTrustedProxies, resolveClientAddress } from "@/lib/server/client-address";
import { HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS } from "@/lib/server/front-server";

const read = (file: string) => readFileSync(path.join(__dirname, file), "utf8");

const service = z.object({
  image: z.string().optional(),
  build: z.unknown().optional(),
  command: z.array(z.string()).optional(),
  environment: z.record(z.string(), z.string()).optional(),
  networks: z.union([z.array(z.string()), z.record(z.string(), z.object({ ipv4_address: z.string().optional() }).nullable())]).optional(),
});
const composeFile = z.object({
  services: z.record(z.string(), service),
  networks: z.record(z.string(), z.object({ ipam: z.object({ config: z.array(z.object({ subnet: z.string(), ip_range: z.string().optional() })) }) })),
});
const compose = composeFile.parse(parse(read("compose.yaml")));

const networksOf = (s: z.infer<typeof service>) => (Array.isArray(s.networks) ? s.networks : Object.keys(s.networks ?? {}));
/** The dashboard instances: the services built from the image that run the production entry (no other command). */
const dashboards = Object.entries(compose.services).filter(([, s]) => s.build !== undefined && s.command === undefined);
const lb = compose.services.lb!;
const [lbNetwork, lbAttachment] = Object.entries(!Array.isArray(lb.networks) && lb.networks ? lb.networks : {})[0] ?? [];
const lbAddress = lbAttachment?.ipv4_address ?? "";

/** nginx's directives, each with the blocks it sits in ("upstream dashboard", "server/location /"). */
function nginxDirectives(text: string): { block: string; name: string; args: string[] }[] {
  const out: { block: string; name: string; args: string[] }[] = [];
  const blocks: string[] = [];
  let words: string[] = [];
  const tokens = text.replace(/#[^\n]*/g, "").match(/"[^"]*"|'[^']*'|[{};]|[^\s{};]+/g) ?? [];
  for (const token of tokens) {
    if (token === "{") blocks.push(words.join(" "));
    else if (token === "}") blocks.pop();
    else if (token === ";") out.push({ block: blocks.join("/"), name: words[0]!, args: words.slice(1) });
    else {
      words.push(token);
      continue;
    }
    words = [];
  }
  return out;
}
const nginx = nginxDirectives(read("nginx.conf"));
const forwardedFor = nginx.filter((d) => d.name === "proxy_set_header" && d.args[0]?.toLowerCase() === "x-forwarded-for");

/** What nginx, as configured, sends upstream as X-Forwarded-For for a client at `client` that sent `sent`. */
function nginxForwards(value: string, client: string, sent: string | null): string {
  if (value === "$remote_addr") return client;
  if (value === "$proxy_add_x_forwarded_for") return sent ? `${sent}, ${client}` : client;
  throw new Error(`unexpected X-Forwarded-For value in nginx.conf: ${value}`);
}

/** Clients (private networks, another container on the Compose network, the public) and what they forge. */
const CLIENTS = ["10.1.2.3", "172.16.5.5", "192.168.1.9", "172.28.0.130", "203.0.113.9", "2001:db8::7"];
const FORGED = [null, "1.1.1.1", "198.51.100.7, 10.0.0.1", "garbage", "172.28.0.10", "unknown, 192.168.0.1"];

/** Every client whose throttling key, through nginx, is not its own address: empty when nobody can pick one. */
function misattributed(trustedProxies: string, xffValue: string, proxy: string): string[] {
  const trusted = parseTrustedProxies(trustedProxies);
  const wrong: string[] = [];
  for (const client of CLIENTS) {
    for (const sent of FORGED) {
      const resolved = resolveClientAddress(proxy, nginxForwards(xffValue, client, sent), trusted);
      if (!resolved || clientKeyOf(resolved) !== clientKeyOf(parseAddress(client)!)) wrong.push(`${client} sending ${sent}`);
    }
  }
  return wrong;
}

describe("deploy/compose.yaml and deploy/nginx.conf", () => {
  it("nginx sets X-Forwarded-For to the address it sees, never appending the client's own header", () => {
    expect(forwardedFor.map((d) => d.args.slice(1).join(" "))).toEqual(["$remote_addr"]);
    expect(read("nginx.conf")).not.toMatch(/^[^#]*\$proxy_add_x_forwarded_for/m);
  });

  it("the instances trust exactly the load balancer's fixed address, which no other container can be given", () => {
    expect(dashboards.map(([name]) => name).sort()).toEqual(["dashboard-a", "dashboard-b"]);
    expect(lbAddress).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    for (const [name, s] of dashboards) {
      expect(s.environment?.TRUSTED_PROXIES, name).toBe(lbAddress);
      expect(networksOf(s), name).toEqual([lbNetwork]);
    }
    const [{ subnet, ip_range }] = compose.networks[lbNetwork!]!.ipam.config as [{ subnet: string; ip_range?: string }];
    const address = parseAddress(lbAddress)!;
    expect(address.match(parseTrustedProxies(subnet)[0]!)).toBe(true);
    // Dynamic addresses come from ip_range, which must leave the load balancer's out.
    expect(ip_range).toBeDefined();
    expect(address.match(parseTrustedProxies(ip_range!)[0]!)).toBe(false);
  });

  it("through nginx, every client is keyed by its own address whatever X-Forwarded-For it forges", () => {
    const trusted = dashboards[0]![1].environment!.TRUSTED_PROXIES!;
    expect(misattributed(trusted, forwardedFor[0]!.args.slice(1).join(" "), lbAddress)).toEqual([]);
    // The same check finds the setup it replaces forgeable: private ranges trusted, the header appended.
    expect(misattributed("10.0.0.0/8,172.16.0.0/12,192.168.0.0/16", "$proxy_add_x_forwarded_for", lbAddress).length).toBeGreaterThan(0);
  });

  it("a client reaching an instance directly (another container) is keyed by its own address", () => {
    const trusted = parseTrustedProxies(dashboards[0]![1].environment!.TRUSTED_PROXIES!);
    for (const sent of FORGED) expect(resolveClientAddress("172.28.0.130", sent, trusted)?.toString()).toBe("172.28.0.130");
  });

  it("nginx closes idle upstream connections before the instances do (keepalive_timeout below KEEP_ALIVE_TIMEOUT_MS)", () => {
    const timeouts = nginx.filter((d) => d.name === "keepalive_timeout" && d.block.startsWith("upstream"));
    expect(timeouts).toHaveLength(1);
    const match = /^(\d+)(s?)$/.exec(timeouts[0]!.args[0] ?? "");
    expect(match, "keepalive_timeout in seconds").not.toBeNull();
    const nginxMs = Number(match![1]) * 1000;
    expect(nginxMs).toBeLessThan(KEEP_ALIVE_TIMEOUT_MS);
    // A margin for a request nginx sends just as its own timer is about to fire.
    expect(KEEP_ALIVE_TIMEOUT_MS - nginxMs).toBeGreaterThanOrEqual(5000);
    expect(HEADERS_TIMEOUT_MS).toBeGreaterThan(KEEP_ALIVE_TIMEOUT_MS);
  });
});
