// What the production entry (scripts/run.ts) tells the app about how it runs, as process-level
// flags on globalThis rather than environment variables: nothing outside this process can set them,
// so a header or setting the app would otherwise have to take on trust cannot be forged.
// - frontServer: the app runs behind lib/server/front-server.ts, which sets the peer-address header
//   itself (stripping any incoming copy), so that header tells the socket address.
// - embeddedSandboxOrigin: the Data API is the sandbox that the entry started, so its demo keys may be
//   offered on the sign-in page.
// No `server-only` here: scripts/run.ts (plain Node) sets these before Next loads.

export type RuntimeFlags = { frontServer: boolean; embeddedSandboxOrigin: string | null };

const FLAGS = Symbol.for("workspace-analytics.runtime-flags");
const g = globalThis as typeof globalThis & { [FLAGS]?: RuntimeFlags };

export function runtimeFlags(): RuntimeFlags {
  return g[FLAGS] ?? { frontServer: false, embeddedSandboxOrigin: null };
}

export function setRuntimeFlags(flags: Partial<RuntimeFlags>): void {
  g[FLAGS] = { ...runtimeFlags(), ...flags };
}
