// What callers of the Data API see: `get(path, input)` for any endpoint of the registry
// (endpoints.ts), typed by its declaration. The server implements it with the upstream client
// (client.ts); the browser has the same shape over this app's /api routes (lib/queries/api.ts).
import type { EndpointPath, Endpoints, InputOf, ResultOf } from "./endpoints";

export type CallOptions = {
  /** Exports page at bulk priority, the history collector at background, so interactive use stays responsive. */
  priority?: "interactive" | "bulk" | "background";
  signal?: AbortSignal;
  /** While the call waits for the key's rate budget: ms until it may go (0 once sent); see ScheduleOptions. */
  onWait?: (ms: number) => void;
  /** Asks the Data API even when a cached answer exists (sign-in's check of a key); the answer is still kept. */
  fresh?: boolean;
  /**
   * `false`: the answer is not kept in the cache (a recheck of the key, lib/server/key-standing.ts:
   * its body answers nobody's question, and must not stand in for a read asked a moment later).
   */
  keep?: boolean;
};

export interface DataApi {
  get<P extends EndpointPath>(path: P, input: InputOf<Endpoints[P]>, options?: CallOptions): Promise<ResultOf<Endpoints[P]>>;
}
