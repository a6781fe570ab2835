// Export progress in Redis, so the instance serving the tray's next request sees an export that
// another instance streams, and a cancel sent to any instance reaches it. Same semantics as
// MemoryExportStatusStore (lib/shared-state/export-status.ts), which is also what serves while Redis is away.
//
// Keys (P = REDIS_KEY_PREFIX, OWNER = keyed hash of the API key):
//   P exp:OWNER            hash: export id -> {w: write order, e: expiry, a: 1 if running or waiting,
//                          u: last write (ms), r: the record's JSON}, kept as long as its newest record
//   P exp:OWNER:cancel:ID  a cancel request, holding its expiry
// Expiry is judged by the server clock (`now`, passed in), like the memory store; Redis' own TTLs
// only collect what nobody reads any more. Writes are one Lua script each, so `begin`'s count of
// running exports and its write are one step across instances, and the per-owner bound
// (MAX_EXPORTS_PER_OWNER: expired first, then finished ones oldest-written first, then the oldest)
// holds whoever writes.
import "server-only";
import { MAX_EXPORTS_PER_OWNER, MemoryExportStatusStore, isActive, type BeginResult, type ExportRecord, type ExportStatusStore } from "../export-status";
import { viaRedis, type RedisLink } from "./connection";
import { defineScript } from "./scripts";

const WRITE_LUA = `
local hash, mode, id, record = KEYS[1], ARGV[1], ARGV[2], ARGV[3]
local active, updated, now, ttl = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local maxPerOwner, maxRunning, fresh = tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10])
local live, maxw, running, exists = {}, 0, 0, false
local all = redis.call('HGETALL', hash)
for i = 1, #all, 2 do
  local field, entry = all[i], cjson.decode(all[i + 1])
  if entry.e <= now then
    redis.call('HDEL', hash, field)
  else
    if field == id then exists = true end
    if entry.a == 1 and entry.u >= fresh then running = running + 1 end
    if entry.w > maxw then maxw = entry.w end
    if field ~= id then table.insert(live, {field, entry.w, entry.a}) end
  end
end
if mode == 'begin' then
  if exists then return 'exists' end
  if running >= maxRunning then return 'busy' end
end
redis.call('HSET', hash, id, cjson.encode({w = maxw + 1, e = now + ttl, a = active, u = updated, r = record}))
table.insert(live, {id, maxw + 1, active})
local count = #live
if count > maxPerOwner then
  table.sort(live, function(x, y) return x[2] < y[2] end)
  for pass = 1, 2 do
    for _, entry in ipairs(live) do
      if count <= maxPerOwner then break end
      if not entry.gone and (pass == 2 or entry[3] == 0) then
        redis.call('HDEL', hash, entry[1])
        entry.gone = true
        count = count - 1
      end
    end
  end
end
if redis.call('PTTL', hash) < ttl then redis.call('PEXPIRE', hash, ttl) end
return 'started'`;

type Stored = { e: number; r: string };

/** The Redis side alone: throws when Redis fails. */
export class RedisExportStatusStore implements ExportStatusStore {
  private readonly write;

  constructor(
    private readonly link: RedisLink,
    private readonly now: () => number,
  ) {
    this.write = defineScript(link.client, "waExportWrite", 1, WRITE_LUA);
  }

  private hash(owner: string): string {
    return this.link.key("exp", owner);
  }

  private run(mode: "begin" | "put", owner: string, record: ExportRecord, ttlMs: number, limits = { maxRunning: 0, fresh: 0 }) {
    return this.write(
      this.hash(owner),
      mode,
      record.id,
      JSON.stringify(record),
      isActive(record.state) ? 1 : 0,
      Date.parse(record.updated_at) || 0,
      this.now(),
      Math.ceil(ttlMs),
      MAX_EXPORTS_PER_OWNER,
      limits.maxRunning,
      limits.fresh,
    ) as Promise<BeginResult>;
  }

  begin(owner: string, record: ExportRecord, options: { maxRunning: number; freshSince: string; ttlMs: number }): Promise<BeginResult> {
    return this.run("begin", owner, record, options.ttlMs, { maxRunning: options.maxRunning, fresh: Date.parse(options.freshSince) });
  }

  async put(owner: string, record: ExportRecord, ttlMs: number): Promise<void> {
    if (ttlMs <= 0) return;
    await this.run("put", owner, record, ttlMs);
  }

  async get(owner: string, id: string): Promise<ExportRecord | undefined> {
    const raw = await this.link.client.hget(this.hash(owner), id);
    return raw === null ? undefined : this.live(raw);
  }

  async list(owner: string): Promise<ExportRecord[]> {
    const all = await this.link.client.hgetall(this.hash(owner));
    return Object.values(all)
      .flatMap((raw) => this.live(raw) ?? [])
      .sort((a, b) => b.started_at.localeCompare(a.started_at));
  }

  async requestCancel(owner: string, id: string, ttlMs: number): Promise<void> {
    if (ttlMs <= 0) return;
    await this.link.client.set(this.link.key("exp", owner, "cancel", id), String(this.now() + ttlMs), "PX", Math.ceil(ttlMs));
  }

  async isCancelRequested(owner: string, id: string): Promise<boolean> {
    const until = await this.link.client.get(this.link.key("exp", owner, "cancel", id));
    return until !== null && Number(until) > this.now();
  }

  private live(raw: string): ExportRecord | undefined {
    try {
      const stored = JSON.parse(raw) as Stored;
      return stored.e > this.now() ? (JSON.parse(stored.r) as ExportRecord) : undefined;
    } catch {
      return undefined;
    }
  }
}

const newer = (a: ExportRecord | undefined, b: ExportRecord | undefined) => (!a ? b : !b ? a : b.updated_at > a.updated_at ? b : a);

/**
 * Export progress through Redis, served from this process while Redis is away. Records written here
 * meanwhile stay readable (merged with Redis' by their last write) and reach Redis with the export's
 * next write once it is back; a running-exports check made meanwhile counts this instance's only.
 */
export class ResilientExportStatusStore implements ExportStatusStore {
  private readonly shared: RedisExportStatusStore;
  private readonly local: MemoryExportStatusStore;

  constructor(
    private readonly link: RedisLink,
    now: () => number,
  ) {
    this.shared = new RedisExportStatusStore(link, now);
    this.local = new MemoryExportStatusStore(undefined, now);
  }

  begin(owner: string, record: ExportRecord, options: { maxRunning: number; freshSince: string; ttlMs: number }): Promise<BeginResult> {
    return viaRedis(
      this.link,
      () => this.shared.begin(owner, record, options),
      () => this.local.begin(owner, record, options),
    );
  }

  put(owner: string, record: ExportRecord, ttlMs: number): Promise<void> {
    return viaRedis(
      this.link,
      () => this.shared.put(owner, record, ttlMs),
      () => this.local.put(owner, record, ttlMs),
    );
  }

  async get(owner: string, id: string): Promise<ExportRecord | undefined> {
    const here = await this.local.get(owner, id);
    return newer(
      await viaRedis(
        this.link,
        () => this.shared.get(owner, id),
        async () => undefined,
      ),
      here,
    );
  }

  async list(owner: string): Promise<ExportRecord[]> {
    const here = await this.local.list(owner);
    const there = await viaRedis(
      this.link,
      () => this.shared.list(owner),
      async () => [],
    );
    if (here.length === 0) return there;
    const byId = new Map(there.map((r) => [r.id, r]));
    for (const record of here) byId.set(record.id, newer(byId.get(record.id), record)!);
    return [...byId.values()].sort((a, b) => b.started_at.localeCompare(a.started_at)).slice(0, MAX_EXPORTS_PER_OWNER);
  }

  requestCancel(owner: string, id: string, ttlMs: number): Promise<void> {
    return viaRedis(
      this.link,
      () => this.shared.requestCancel(owner, id, ttlMs),
      () => this.local.requestCancel(owner, id, ttlMs),
    );
  }

  async isCancelRequested(owner: string, id: string): Promise<boolean> {
    if (await this.local.isCancelRequested(owner, id)) return true;
    return viaRedis(
      this.link,
      () => this.shared.isCancelRequested(owner, id),
      async () => false,
    );
  }
}
