"use client";
// Closing a popover (a menu, a panel) when the user turns elsewhere: while it is open, a pointer
// press outside its root, and with `focus` also focus moving outside it, calls `dismiss`.
import { useEffect, useEffectEvent, type RefObject } from "react";

export function useDismissOutside(root: RefObject<HTMLElement | null>, open: boolean, dismiss: () => void, { focus = false } = {}): void {
  const onOutside = useEffectEvent((e: Event) => {
    if (root.current && e.target instanceof Node && !root.current.contains(e.target)) dismiss();
  });
  useEffect(() => {
    if (!open) return;
    const events = focus ? ["pointerdown", "focusin"] : ["pointerdown"];
    const listener = (e: Event) => onOutside(e);
    for (const type of events) document.addEventListener(type, listener);
    return () => {
      for (const type of events) document.removeEventListener(type, listener);
    };
  }, [open, focus]);
}
