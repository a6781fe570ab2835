"use client";
// The notes' flags over a chart: one small button per mark (a day's note, or a span's first day),
// named by the notes' days and text, showing them in a tooltip on hover, on keyboard focus and on a
// tap (Escape hides it). The chart itself is hidden from assistive technology (its table says the
// figures), so the flags live outside it, in a layer over it, at positions the chart gives; the lines
// and bands they stand for are drawn by the chart. Texts are rendered as text, never as markup.
import { useId, useState } from "react";
import type { AnnotationJson } from "@/lib/annotations/limits";
import { markText, noteDays, type NoteMark } from "./annotation-data";
import styles from "./annotations.module.css";

/**
 * A flag's place over the chart: `left` of the mark's start (a CSS length), `top` of the plot, and
 * how far across the chart it is (0 to 1): its tooltip is shifted left by as much of its own width,
 * so it stays over the chart at either edge, on a phone too.
 */
export type FlagPlace = { mark: NoteMark; left: string; top: string; across: number };

function NoteLines({ notes }: { notes: AnnotationJson[] }) {
  return (
    <>
      {notes.map((n) => (
        <span key={n.id} className={styles.tipNote}>
          <strong>{noteDays(n)}</strong> <span className={styles.noteText}>{n.text}</span>
          {n.author ? <span className="muted"> — {n.author}</span> : null}
        </span>
      ))}
    </>
  );
}

function NoteFlag({ place }: { place: FlagPlace }) {
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [pinned, setPinned] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const tipId = useId();
  const open = (hovered || focused || pinned) && !dismissed;
  const { mark } = place;
  return (
    <span
      className={styles.flagWrap}
      style={{ left: place.left, top: place.top }}
      onMouseEnter={() => {
        setDismissed(false);
        setHovered(true);
      }}
      onMouseLeave={() => setHovered(false)}
    >
      <button
        type="button"
        className={`${styles.flag} ${mark.kind === "band" ? styles.flagBand : ""}`}
        aria-label={markText(mark)}
        data-testid="note-flag"
        onFocus={() => {
          setDismissed(false);
          setFocused(true);
        }}
        onBlur={() => {
          setFocused(false);
          setPinned(false);
        }}
        onClick={() => {
          setDismissed(false);
          setPinned((p) => !p);
        }}
        onKeyDown={(e) => {
          if (e.key === "Escape" && open) {
            e.stopPropagation();
            setDismissed(true);
            setPinned(false);
          }
        }}
      >
        {mark.notes.length > 1 ? mark.notes.length : ""}
      </button>
      {open && (
        <span
          id={tipId}
          role="tooltip"
          className={`chart-tooltip ${styles.tip}`}
          style={{ transform: `translateX(${-Math.min(1, Math.max(0, place.across)) * 100}%)` }}
          data-testid="note-tooltip"
        >
          <NoteLines notes={mark.notes} />
        </span>
      )}
    </span>
  );
}

export function NoteFlags({ places }: { places: FlagPlace[] }) {
  return (
    <>
      {places.map((p) => (
        <NoteFlag key={`${p.mark.kind}:${p.mark.first}:${p.mark.last}`} place={p} />
      ))}
    </>
  );
}
