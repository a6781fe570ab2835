// Which client a request comes from, for throttling sign-in attempts. Route handlers cannot see the
// socket; the front server (front-server.ts) passes the peer address on in PEER_ADDRESS_HEADER,
// which is believed only when this process runs behind it (runtime-flags.ts). X-Forwarded-For is
// believed only from the proxies in TRUSTED_PROXIES: walking it from the right, the first address
// that is not a trusted proxy is the client (everything left of it may be forged). Clients are keyed
// by address, IPv6 by its /64 (one subscriber's usual allocation, so rotating within it is useless).
// No `server-only`: scripts/run.ts validates TRUSTED_PROXIES with parseTrustedProxies at start-up.
import ipaddr from "ipaddr.js";
import { runtimeFlags } from "./runtime-flags";

/** Set by the front server from the socket; any copy sent by a client is removed first. */
export const PEER_ADDRESS_HEADER = "x-wa-peer-address";

type Address = ipaddr.IPv4 | ipaddr.IPv6;
export type TrustedProxies = readonly [Address, number][];

/** Parses an address, folding IPv4-mapped IPv6 (`::ffff:10.0.0.1`, as dual-stack sockets report) to IPv4. */
export function parseAddress(value: string): Address | null {
  const trimmed = value.trim().replace(/^\[(.*)\]$/, "$1");
  if (!ipaddr.isValid(trimmed)) return null;
  const address = ipaddr.parse(trimmed);
  return address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress() ? (address as ipaddr.IPv6).toIPv4Address() : address;
}

/** TRUSTED_PROXIES: a comma list of IPs and CIDR ranges. Throws with the bad entry named. */
export function parseTrustedProxies(value: string | undefined): TrustedProxies {
  const out: [Address, number][] = [];
  for (const entry of (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (entry.includes("/")) {
      try {
        const [address, bits] = ipaddr.parseCIDR(entry);
        const folded = parseAddress(address.toString());
        out.push(folded && folded.kind() !== address.kind() ? [folded, bits - 96] : [address, bits]);
      } catch {
        throw new Error(`"${entry}" is not an IP address or CIDR range`);
      }
    } else {
      const address = parseAddress(entry);
      if (!address) throw new Error(`"${entry}" is not an IP address or CIDR range`);
      out.push([address, address.kind() === "ipv4" ? 32 : 128]);
    }
  }
  return out;
}

function isTrusted(address: Address, trusted: TrustedProxies): boolean {
  return trusted.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
}

/**
 * The client's address: the peer, or, when the peer is a trusted proxy, the right-most address of
 * X-Forwarded-For that is not one. Null when the peer is not a valid address.
 */
export function resolveClientAddress(peer: string, forwardedFor: string | null, trusted: TrustedProxies): Address | null {
  let client = parseAddress(peer);
  if (!client || !isTrusted(client, trusted)) return client;
  const hops = (forwardedFor ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = parseAddress(hops[i]!);
    // Garbage where a trusted proxy should have written an address: nothing further left is believable.
    if (!hop) break;
    client = hop;
    if (!isTrusted(hop, trusted)) break;
  }
  return client;
}

/** The throttling key of an address: IPv4 as is, IPv6 by its /64. */
export function clientKeyOf(address: Address): string {
  if (address.kind() === "ipv4") return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(":")}::/64`;
}

/** Every request not known to come through the front server shares this key (docs/architecture.md "The production entry"). */
export const UNKNOWN_CLIENT = "unknown";

/** The throttling key of the client that sent `req`. */
export function clientKey(req: Request, trusted: TrustedProxies): string {
  if (!runtimeFlags().frontServer) return UNKNOWN_CLIENT;
  const peer = req.headers.get(PEER_ADDRESS_HEADER);
  const address = peer ? resolveClientAddress(peer, req.headers.get("x-forwarded-for"), trusted) : null;
  return address ? clientKeyOf(address) : UNKNOWN_CLIENT;
}
