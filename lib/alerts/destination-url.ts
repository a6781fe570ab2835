// Where alerts may be sent. A destination URL is a request this server makes on a user's say-so, so
// it must not reach what only the server can reach: private, loopback, link-local, multicast and
// other special addresses are refused (unless WEBHOOK_ALLOW_PRIVATE=true, for a receiver on the same
// network or in tests), IPv6 addresses that carry an IPv4 one (mapped, compatible, translated, NAT64,
// 6to4, Teredo) judged by the IPv4 inside. The name is resolved (resolve-name.ts: c-ares under a 2 s
// deadline, off the thread pool) and every address checked, when the destination is saved (to say so
// at once) and again on every send, at the moment of connecting (the lookup the socket itself uses),
// so a name that later resolves elsewhere (DNS rebinding) is refused too. Refusals name only what the
// user typed, never an address a name resolved to: the check must not tell anyone what names such as
// `postgres` or `redis` mean inside this server's network.
// Only public unicast addresses pass; `https:` is required unless private addresses are allowed.
import "server-only";
import type { LookupAddress, LookupOneOptions, LookupAllOptions } from "node:dns";
import ipaddr from "ipaddr.js";
import { errorBrand } from "@/lib/error-brand";
import { destinationResolver, isNameNotResolved, type NameResolver } from "./resolve-name";

// Recognised by its brand (lib/error-brand.ts), not `instanceof`, as every error the routes map is.
const refusedBrand = errorBrand<DestinationRefused>("DestinationRefused");

export class DestinationRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DestinationRefused";
    refusedBrand.mark(this);
  }
}

export const isDestinationRefused = refusedBrand.is;

/** The IPv4 address in two 16-bit parts of an IPv6 address, from `i`. */
const v4At = (parts: number[], i: number) => new ipaddr.IPv4([parts[i]! >> 8, parts[i]! & 0xff, parts[i + 1]! >> 8, parts[i + 1]! & 0xff]);
const prefix = (text: string) => ipaddr.parseCIDR(text) as [ipaddr.IPv6, number];
const IPV4_LAST_32 = ["::ffff:0:0/96", "::/96", "::ffff:0:0:0/96", "64:ff9b::/96"].map(prefix);
const SIX_TO_FOUR = prefix("2002::/16");
const TEREDO = prefix("2001::/32");
const NAT64_LOCAL = prefix("64:ff9b:1::/48");

/**
 * The IPv4 addresses an IPv6 address carries, where packets to it may end up: mapped (::ffff:0:0/96),
 * compatible (::/96), translated (::ffff:0:0:0/96), NAT64 (64:ff9b::/96), 6to4 (2002::/16, the relay's
 * IPv4 in bits 16-47) and Teredo (2001::/32: its server, and its client with the bits inverted).
 * Undefined for any other IPv6 address.
 */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4[] | undefined {
  const parts = address.parts;
  if (IPV4_LAST_32.some((p) => address.match(p))) return [v4At(parts, 6)];
  if (address.match(SIX_TO_FOUR)) return [v4At(parts, 1)];
  if (address.match(TEREDO)) return [v4At(parts, 2), v4At([parts[6]! ^ 0xffff, parts[7]! ^ 0xffff], 0)];
  return undefined;
}

/** Whether `address` (an IP literal) is one alerts may be sent to: public unicast only. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv4") return parsed.range() === "unicast";
  const v6 = parsed as ipaddr.IPv6;
  const inside = embeddedIpv4(v6);
  if (inside) return inside.every((v4) => v4.range() === "unicast");
  // NAT64 for local use (RFC 8215) translates into whatever network its operator chose.
  if (v6.match(NAT64_LOCAL)) return false;
  return v6.range() === "unicast";
}

/** The host of a URL as an IP literal would be written ([::1] -> ::1). */
const bareHost = (hostname: string) => (hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname);

const MAX_URL_LENGTH = 2048;

/**
 * The URL as it will be called, or a DestinationRefused saying why not (its syntax, scheme, or an
 * address that is an IP literal of a private range). Names are checked by `checkResolved`.
 */
export function parseDestinationUrl(raw: string, allowPrivate: boolean): URL {
  const text = raw.trim();
  if (text.length === 0) throw new DestinationRefused("url must not be empty: paste the webhook's address.");
  if (text.length > MAX_URL_LENGTH) throw new DestinationRefused(`url must be at most ${MAX_URL_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new DestinationRefused("url is not a valid address: it should look like https://hooks.example.com/….");
  }
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) {
    throw new DestinationRefused(
      allowPrivate ? "url must start with https:// or http://." : "url must start with https:// (alerts are not sent in clear text).",
    );
  }
  if (url.hash) throw new DestinationRefused("url must not have a #fragment (it is never sent to the receiver).");
  const host = bareHost(url.hostname);
  if (!allowPrivate && ipaddr.isValid(host) && !isPublicAddress(host)) {
    throw new DestinationRefused(`url points at a private, loopback or otherwise reserved address (${host}), which alerts are not sent to.`);
  }
  return url;
}

/**
 * A Slack destination's URL, or a DestinationRefused: only Slack's incoming webhooks
 * (`https://hooks.slack.com/services/…`) receive what is made for Slack, so an address that is not
 * one is a mistake (a webhook meant as "Webhook", a workflow URL) or an attempt to post unsigned
 * requests somewhere else.
 */
export function checkSlackWebhookUrl(url: URL): URL {
  const segments = url.pathname.split("/").slice(2);
  const isSlack =
    url.protocol === "https:" &&
    url.hostname === "hooks.slack.com" &&
    url.port === "" &&
    url.username === "" &&
    url.password === "" &&
    url.pathname.startsWith("/services/") &&
    segments.length >= 2 &&
    segments.every((s) => /^[A-Za-z0-9_-]+$/.test(s));
  if (!isSlack) {
    throw new DestinationRefused(
      "url must be the Slack incoming webhook's address, https://hooks.slack.com/services/…, as Slack shows it when the webhook is added to a channel. For any other address, choose Webhook.",
    );
  }
  return url;
}

const REFUSED_ADDRESS = "a private, loopback or otherwise reserved address, which alerts are not sent to";

/**
 * Resolves `hostname` to every address it has; refused when it has none or one is not public. The
 * refusal names the host as typed, never what it resolved to.
 */
export async function checkResolved(hostname: string, allowPrivate: boolean, resolver: NameResolver = destinationResolver()): Promise<string[]> {
  const host = bareHost(hostname);
  if (ipaddr.isValid(host)) {
    if (!allowPrivate && !isPublicAddress(host)) throw new DestinationRefused(`${host} is ${REFUSED_ADDRESS}.`);
    return [host];
  }
  let addresses: string[];
  try {
    addresses = await resolver.resolve(host);
  } catch (error) {
    if (isNameNotResolved(error)) throw new DestinationRefused(error.message);
    throw new DestinationRefused(`the name ${host} could not be resolved.`);
  }
  if (addresses.length === 0) throw new DestinationRefused(`the name ${host} has no address.`);
  if (!allowPrivate && !addresses.every(isPublicAddress)) throw new DestinationRefused(`the name ${host} resolves to ${REFUSED_ADDRESS}.`);
  return addresses;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http(s).request that resolves with `resolver` (not dns.lookup) and refuses the
 * connection when any address is not public: the socket connects only to addresses this check passed.
 */
export function checkedLookup(allowPrivate: boolean, resolver: NameResolver = destinationResolver()) {
  return (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void => {
    checkResolved(hostname, allowPrivate, resolver).then(
      (addresses) => {
        const family = (a: string) => (ipaddr.parse(a).kind() === "ipv6" ? 6 : 4);
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => family(a) === options.family) : addresses;
        if (wanted.length === 0) {
          callback(Object.assign(new Error(`${hostname} has no IPv${String(options.family)} address`), { code: "ENOTFOUND" }), [], undefined);
          return;
        }
        if (options.all)
          callback(
            null,
            wanted.map((address) => ({ address, family: family(address) })),
          );
        else callback(null, wanted[0]!, family(wanted[0]!));
      },
      (error: unknown) => callback(Object.assign(error instanceof Error ? error : new Error(String(error)), { code: "EREFUSED" }), [], undefined),
    );
  };
}

/** What the screen shows of a URL: its origin and the last four characters, never the path's secret. */
export function urlHint(url: URL): string {
  const rest = `${url.pathname}${url.search}`;
  const tail = rest.length > 4 ? rest.slice(-4) : "";
  return rest.length > 1 ? `${url.origin}/…${tail}` : url.origin;
}
