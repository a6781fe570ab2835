// The embedded database belongs to one process at a time: two processes writing one SQLite file
// (two `npm start` in one directory, a dev server beside a production one) would each think they
// run the background jobs alone. Two guards, in this order:
// 1. `store.lock` in DATA_DIR, created exclusively, names the holder (pid, the time it started, and
//    on Linux the kernel's start tick of that pid, so a pid reused by another program is not taken
//    for the holder). A lock whose pid is gone is stale and taken over; a live holder is refused with
//    a StoreLockedError naming the directory and the pid.
// 2. The database file itself is opened in SQLite's EXCLUSIVE locking mode (database.ts): the kernel
//    holds that lock for the process and drops it when the process dies, so even two processes that
//    took over the same stale lock file at once cannot both open the database.
import { readFileSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

export const LOCK_FILE = "store.lock";

export type LockHolder = { pid: number; started: string; startTick?: string };

/** The embedded store's directory is held by another live process. */
export class StoreLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: LockHolder | undefined,
  ) {
    super(
      holder
        ? `the embedded store in ${dir} is in use by process ${holder.pid} (running since ${holder.started}): stop that process, or give this one another DATA_DIR (or a DATABASE_URL shared by both)`
        : `the embedded store in ${dir} is in use by another process: stop it, or give this one another DATA_DIR (or a DATABASE_URL shared by both)`,
    );
    this.name = "StoreLockedError";
  }
}

/** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks since boot (Linux only). */
function startTickOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19];
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readHolder(file: string): LockHolder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as Partial<LockHolder>;
    if (typeof parsed.pid !== "number" || !Number.isInteger(parsed.pid) || parsed.pid <= 0) return undefined;
    return { pid: parsed.pid, started: String(parsed.started ?? "an unknown time"), ...(parsed.startTick ? { startTick: String(parsed.startTick) } : {}) };
  } catch {
    return undefined;
  }
}

/** Whether the recorded holder is a running process that is still the one that wrote the lock. */
function holderRunning(holder: LockHolder): boolean {
  if (holder.pid === process.pid) return false; // this process: a lock it left behind (closed without release)
  if (!isAlive(holder.pid)) return false;
  if (holder.startTick === undefined) return true;
  const tick = startTickOf(holder.pid);
  return tick === undefined || tick === holder.startTick;
}

function thisProcess(): LockHolder {
  const tick = startTickOf(process.pid);
  return { pid: process.pid, started: new Date(Date.now() - process.uptime() * 1000).toISOString(), ...(tick ? { startTick: tick } : {}) };
}

/** The lock files this process holds (on globalThis: the store's modules may be bundled more than once). */
const g = globalThis as typeof globalThis & { __waDataDirLocks?: Set<string> };
const heldHere = (g.__waDataDirLocks ??= new Set<string>());

export type DataDirLock = {
  readonly file: string;
  /** Writes this process into the lock again (after the database lock is won: it is the holder). */
  confirm(): void;
  /** Removes the lock file if it still names this process. */
  release(): void;
};

/**
 * Takes `dir`'s lock file for this process, taking over a stale one, or throws StoreLockedError
 * naming the live holder. The directory must exist.
 */
export function acquireDataDirLock(dir: string): DataDirLock {
  const file = path.join(dir, LOCK_FILE);
  const me = thisProcess();
  // Held by this very process already (a second open beside the process's store): its lock file names
  // this pid, which would otherwise read as one left behind, and be taken over from under it.
  if (heldHere.has(file)) throw new StoreLockedError(dir, me);
  const body = `${JSON.stringify(me)}\n`;
  let taken = false;
  for (let attempt = 0; attempt < 5 && !taken; attempt++) {
    try {
      writeFileSync(file, body, { flag: "wx", mode: 0o600 });
      taken = true;
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = readHolder(file);
    if (holder && holderRunning(holder)) throw new StoreLockedError(dir, holder);
    if (!holder && attempt === 0) {
      // Empty or unreadable: maybe being written this instant. Look again in a moment; after that it
      // is garbage, and stale.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
      continue;
    }
    try {
      unlinkSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  if (!taken) throw new StoreLockedError(dir, readHolder(file));
  heldHere.add(file);
  const ours = () => readHolder(file)?.pid === process.pid;
  return {
    file,
    confirm() {
      writeFileSync(file, body, { mode: 0o600 });
    },
    release() {
      if (!heldHere.delete(file)) return;
      try {
        if (ours()) unlinkSync(file);
      } catch {
        // Already gone: nothing to release.
      }
    },
  };
}

/** Who holds `dir`'s lock file, if anyone readable (for the message when the database lock is lost). */
export function lockHolder(dir: string): LockHolder | undefined {
  const holder = readHolder(path.join(dir, LOCK_FILE));
  return holder && holder.pid !== process.pid ? holder : undefined;
}
