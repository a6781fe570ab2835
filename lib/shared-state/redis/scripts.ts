// Lua scripts as client commands, for every Redis-backed piece (stores, cache, the shared budget).
// Free of server-only and of the app's configuration, so the budget's bench can load it under tsx.
import type { Redis } from "ioredis";

type ScriptCall = (...args: Array<string | number | Buffer>) => Promise<unknown>;

/**
 * A Lua script on a client (ioredis sends it by hash, and the source once when Redis lacks it),
 * defined once per client. `buffer`: bulk replies come back as Buffers (sealed values) instead of strings.
 */
export function defineScript(client: Redis, name: string, numberOfKeys: number, lua: string, options: { buffer?: boolean } = {}): ScriptCall {
  const commands = client as unknown as Record<string, ScriptCall | undefined>;
  if (typeof commands[name] !== "function") client.defineCommand(name, { numberOfKeys, lua });
  const call = commands[options.buffer ? `${name}Buffer` : name]!;
  return (...args) => call.apply(client, args);
}
