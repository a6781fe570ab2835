// Counts the records of an export as its bytes arrive, so the progress bar moves with the download.
// Both counters work on raw UTF-8 bytes: the bytes they look at (" \n { } [ ] \) are ASCII and never
// occur inside a multi-byte UTF-8 sequence, so chunk boundaries anywhere are fine.

export interface RecordCounter {
  /** Feeds the next chunk; returns the number of complete records seen so far. */
  push(chunk: Uint8Array): number;
  readonly count: number;
}

const QUOTE = 0x22;
const LF = 0x0a;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** A counter fed byte by byte: `step` sees each byte in order, `count` says how many records are complete. */
function byteCounter(step: (byte: number) => void, count: () => number): RecordCounter {
  return {
    push(chunk) {
      for (let i = 0; i < chunk.length; i++) step(chunk[i]!);
      return count();
    },
    get count() {
      return count();
    },
  };
}

/** CSV: record ends are line feeds outside quoted fields; the first one ends the header row. */
export function csvRecordCounter(): RecordCounter {
  let inQuotes = false;
  let lines = 0;
  return byteCounter(
    (b) => {
      // An escaped quote ("") toggles twice, which leaves the state as it was.
      if (b === QUOTE) inQuotes = !inQuotes;
      else if (b === LF && !inQuotes) lines++;
    },
    () => Math.max(0, lines - 1),
  );
}

/** JSON array: counts items of the top-level array that are complete (their closing brace/bracket seen). */
export function jsonArrayRecordCounter(): RecordCounter {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let items = 0;
  return byteCounter(
    (b) => {
      if (inString) {
        if (escaped) escaped = false;
        else if (b === BACKSLASH) escaped = true;
        else if (b === QUOTE) inString = false;
        return;
      }
      if (b === QUOTE) inString = true;
      else if (b === OPEN_BRACE || b === OPEN_BRACKET) depth++;
      else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
        depth--;
        if (depth === 1) items++;
      }
    },
    () => items,
  );
}
