// What history tells the rest of the app, by subscription rather than by import: a new snapshot or
// day kept for a workspace (alert rules are checked after it), and a workspace whose watching paused
// (its alert destinations are told once). History never imports who listens; the server wires the
// listeners once per process (lib/server/background.ts). Listeners are kept on globalThis, by name,
// so every bundle of the build reaches the same ones and wiring twice replaces rather than doubles.
import "server-only";
import type { WorkspaceId } from "@/lib/store/schema";
import type { Store } from "@/lib/store/store";

type Listeners = {
  snapshotKept: Map<string, (store: Store, workspace: WorkspaceId) => Promise<unknown>>;
  watchingPaused: Map<string, (store: Store, workspace: WorkspaceId, reason: string) => Promise<unknown>>;
};

const g = globalThis as typeof globalThis & { __waHistoryListeners?: Listeners };
const listeners = (g.__waHistoryListeners ??= { snapshotKept: new Map(), watchingPaused: new Map() });

type Event = keyof Listeners;

/** Subscribes `listener`, under `name`, to `event`; the returned function unsubscribes it. */
export function onHistory<E extends Event>(event: E, name: string, listener: NonNullable<ReturnType<Listeners[E]["get"]>>): () => void {
  const all = listeners[event] as Map<string, typeof listener>;
  all.set(name, listener);
  return () => {
    if (all.get(name) === listener) all.delete(name);
  };
}

/** Something new was kept for `workspace`: every listener runs, one after the other, before this resolves. */
export async function snapshotKept(store: Store, workspace: WorkspaceId): Promise<void> {
  for (const listener of listeners.snapshotKept.values()) await listener(store, workspace);
}

/** `workspace`'s watching paused (its kept key refused upstream) for `reason`. */
export async function watchingPaused(store: Store, workspace: WorkspaceId, reason: string): Promise<void> {
  for (const listener of listeners.watchingPaused.values()) await listener(store, workspace, reason);
}
