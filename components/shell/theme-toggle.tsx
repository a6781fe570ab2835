"use client";
// Header button switching between light and dark (the choice is remembered; Settings can go back
// to following the system).
import { useSyncExternalStore } from "react";
import { applyTheme, effectiveTheme } from "@/lib/ui/theme";
import { MoonIcon, SunIcon } from "@/components/ui/icons";

const listeners = new Set<() => void>();
const subscribe = (cb: () => void) => {
  listeners.add(cb);
  const media = window.matchMedia("(prefers-color-scheme: dark)");
  media.addEventListener("change", cb);
  return () => {
    listeners.delete(cb);
    media.removeEventListener("change", cb);
  };
};
export const notifyThemeChange = () => listeners.forEach((cb) => cb());

export function useEffectiveTheme(): "light" | "dark" | null {
  return useSyncExternalStore(subscribe, effectiveTheme, () => null);
}

export function ThemeToggle() {
  const theme = useEffectiveTheme();
  const next = theme === "dark" ? "light" : "dark";
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={theme ? `Switch to ${next} theme` : "Switch theme"}
      title={theme ? `Switch to ${next} theme` : "Switch theme"}
      data-testid="theme-toggle"
      onClick={() => {
        applyTheme(next);
        notifyThemeChange();
      }}
    >
      {theme === "dark" ? <SunIcon /> : <MoonIcon />}
    </button>
  );
}
