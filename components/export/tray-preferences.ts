// What the viewer decided about the exports tray, kept in this browser's localStorage: the exports
// they dismissed (by id) and whether they hid the tray. The server lists a session's finished exports
// for an hour, so a dismissal kept only in the page (or sessionStorage) came back on every reload and
// in every new tab; localStorage holds across both, and its `storage` event tells the other open tabs
// at once. Not on the server: which notices a browser has seen is a view preference of that browser
// (the list is per session, and a session is one browser's cookie), and keeping it here costs no
// request, no route and no record in the shared stores. Ids are random and expire upstream within the
// hour; the newest KEEP are kept, far more than the 10 the tray lists.
// A tiny external store (useSyncExternalStore); storage that is unavailable (private modes, quotas)
// only means a choice lasts as long as the page.
import { useSyncExternalStore } from "react";

const DISMISSED_KEY = "wa_exports_dismissed";
const HIDDEN_KEY = "wa_exports_hidden";
const KEEP = 50;

export type TrayPreferences = {
  dismissed: ReadonlySet<string>;
  /** The viewer's last Hide (true) or Show (false); null when they never chose. */
  hidden: boolean | null;
};

const listeners = new Set<() => void>();
/** This page's choices when storage refuses them. */
let fallback: { dismissed: string | null; hidden: string | null } = { dismissed: null, hidden: null };

function readRaw(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return key === DISMISSED_KEY ? fallback.dismissed : fallback.hidden;
  }
}

function writeRaw(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    fallback = key === DISMISSED_KEY ? { ...fallback, dismissed: value } : { ...fallback, hidden: value };
  }
}

function parseIds(raw: string | null): string[] {
  try {
    const value: unknown = JSON.parse(raw ?? "[]");
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}

let cached: { dismissedRaw: string | null; hiddenRaw: string | null; value: TrayPreferences } | undefined;

/** The current preferences, the same object until the stored text changes (as useSyncExternalStore needs). */
function snapshot(): TrayPreferences {
  const dismissedRaw = readRaw(DISMISSED_KEY);
  const hiddenRaw = readRaw(HIDDEN_KEY);
  if (!cached || cached.dismissedRaw !== dismissedRaw || cached.hiddenRaw !== hiddenRaw) {
    const hidden = hiddenRaw === "1" ? true : hiddenRaw === "0" ? false : null;
    cached = { dismissedRaw, hiddenRaw, value: { dismissed: new Set(parseIds(dismissedRaw)), hidden } };
  }
  return cached.value;
}

const SERVER: TrayPreferences = { dismissed: new Set(), hidden: null };

function emit(): void {
  for (const listener of listeners) listener();
}

/** Another tab wrote (or cleared) the preferences. */
function onStorage(event: StorageEvent): void {
  if (event.key === null || event.key === DISMISSED_KEY || event.key === HIDDEN_KEY) emit();
}

function subscribe(listener: () => void): () => void {
  if (listeners.size === 0) window.addEventListener("storage", onStorage);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener("storage", onStorage);
  };
}

export function dismissExport(id: string): void {
  const ids = parseIds(readRaw(DISMISSED_KEY)).filter((d) => d !== id);
  writeRaw(DISMISSED_KEY, JSON.stringify([...ids, id].slice(-KEEP)));
  emit();
}

export function setTrayHidden(hidden: boolean): void {
  writeRaw(HIDDEN_KEY, hidden ? "1" : "0");
  emit();
}

export function useTrayPreferences(): TrayPreferences {
  return useSyncExternalStore(subscribe, snapshot, () => SERVER);
}
