// Exports this tab has just started and the server may not list yet (the download's request is on
// its way): the tray shows them as "Starting…" until the status route knows them. A tiny external
// store (useSyncExternalStore): the Export buttons write it, the tray in the app shell reads it.
import { useSyncExternalStore } from "react";

export type StartedExport = { id: string; resource: string; format: string; startedAt: number };

let started: readonly StartedExport[] = [];
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

export function addStartedExport(entry: StartedExport): void {
  started = [entry, ...started];
  emit();
}

/** Forgets the ones the server now lists (or that were given up on). */
export function forgetStartedExports(ids: ReadonlySet<string>): void {
  if (!started.some((s) => ids.has(s.id))) return;
  started = started.filter((s) => !ids.has(s.id));
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const EMPTY: readonly StartedExport[] = [];

export function useStartedExports(): readonly StartedExport[] {
  return useSyncExternalStore(
    subscribe,
    () => started,
    () => EMPTY,
  );
}
