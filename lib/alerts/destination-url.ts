// Where alerts may be sent. A destination URL is a request this server makes on a user's say-so, so
// it must not reach what only the server can reach: private, loopback, link-local, multicast and
// other special addresses are refused (unless WEBHOOK_ALLOW_PRIVATE=true, for a receiver on the same
// network or in tests). The name is resolved and every address checked, when the destination is
// saved (to say so at once) and again on every send, at the moment of connecting (the lookup the
// socket itself uses), so a name that later resolves elsewhere (DNS rebinding) is refused too.
// Only public unicast addresses pass; `https:` is required unless private addresses are allowed.
import "server-only";
import dns from "node:dns";
import type { LookupAddress, LookupOneOptions, LookupAllOptions } from "node:dns";
import ipaddr from "ipaddr.js";

export class DestinationRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DestinationRefused";
  }
}

/** Whether `address` (an IP literal) is one alerts may be sent to: public unicast only. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is.
  const parsed = ipaddr.process(address);
  return parsed.range() === "unicast";
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
    throw new DestinationRefused(allowPrivate ? "url must start with https:// or http://." : "url must start with https:// (alerts are not sent in clear text).");
  }
  if (url.hash) throw new DestinationRefused("url must not have a #fragment (it is never sent to the receiver).");
  const host = bareHost(url.hostname);
  if (!allowPrivate && ipaddr.isValid(host) && !isPublicAddress(host)) {
    throw new DestinationRefused(`url points at a private, loopback or otherwise reserved address (${host}), which alerts are not sent to.`);
  }
  return url;
}

/** Resolves `hostname` to every address it has; refused when it has none or one is not public. */
export async function checkResolved(hostname: string, allowPrivate: boolean): Promise<string[]> {
  const host = bareHost(hostname);
  if (ipaddr.isValid(host)) {
    if (!allowPrivate && !isPublicAddress(host)) throw new DestinationRefused(`${host} is a private, loopback or otherwise reserved address, which alerts are not sent to.`);
    return [host];
  }
  let addresses: LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch {
    throw new DestinationRefused(`the name ${host} could not be resolved.`);
  }
  if (addresses.length === 0) throw new DestinationRefused(`the name ${host} has no address.`);
  const bad = addresses.find((a) => !allowPrivate && !isPublicAddress(a.address));
  if (bad) throw new DestinationRefused(`${host} resolves to ${bad.address}, a private, loopback or otherwise reserved address, which alerts are not sent to.`);
  return addresses.map((a) => a.address);
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http(s).request that resolves as dns.lookup does and refuses the connection when any
 * address is not public: the check happens on the very resolution the socket connects to.
 */
export function checkedLookup(allowPrivate: boolean) {
  return (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void => {
    checkResolved(hostname, allowPrivate).then(
      (addresses) => {
        const family = (a: string) => (ipaddr.parse(a).kind() === "ipv6" ? 6 : 4);
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => family(a) === options.family) : addresses;
        if (wanted.length === 0) {
          callback(Object.assign(new Error(`${hostname} has no IPv${String(options.family)} address`), { code: "ENOTFOUND" }), [], undefined);
          return;
        }
        if (options.all) callback(null, wanted.map((address) => ({ address, family: family(address) })));
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
