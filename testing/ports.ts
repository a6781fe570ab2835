// Free loopback ports and waiting for a server to answer: what every test and bench that starts a
// server of its own needs (the sandbox, production instances, PostgreSQL, redis-server).
import { createServer } from "node:net";

/** Listens on `port` (0: any) for a moment and returns the port, or null when it is taken. */
function tryPort(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once("error", () => resolve(null));
    srv.listen(port, "127.0.0.1", () => {
      const { port: bound } = srv.address() as { port: number };
      srv.close(() => resolve(bound));
    });
  });
}

/** Ports of BENCH_PORT_RANGE already handed out by this process (a server may not have bound one yet). */
const handedOut = new Set<number>();

/**
 * A free loopback port: any, or one of BENCH_PORT_RANGE (`3580-3599`) when set, for a machine
 * shared with other runs that keep to their own ranges.
 */
export async function freePort(): Promise<number> {
  const range = /^(\d+)-(\d+)$/.exec(process.env.BENCH_PORT_RANGE ?? "");
  if (!range) return (await tryPort(0))!;
  const [from, to] = [Number(range[1]), Number(range[2])];
  for (let round = 0; round < 2; round++) {
    for (let port = from; port <= to; port++) {
      if (handedOut.has(port) || (await tryPort(port)) === null) continue;
      handedOut.add(port);
      return port;
    }
    // Every port was handed out once: those of servers since stopped are free again.
    handedOut.clear();
  }
  throw new Error(`no free port in BENCH_PORT_RANGE ${process.env.BENCH_PORT_RANGE}`);
}

/** Resolves once `url` answers 2xx, polling every 200 ms; rejects after `ms`. */
export async function waitFor(url: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not come up within ${ms} ms`);
}
