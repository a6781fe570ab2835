"use client";
// The header's account menu: which key and plan this session uses, Settings, and sign out. A menu
// button (WAI-ARIA menu pattern): Enter, Space or Arrow Down opens it on the first item, Arrow Up on
// the last; arrows, Home and End move between items; Escape closes it and returns to the button; Tab
// or a click elsewhere closes it.
import Link from "next/link";
import { useId, useRef, useState, type KeyboardEvent } from "react";
import { useDismissOutside } from "@/components/ui/use-dismiss-outside";
import { useRangeQuery } from "./nav-links";
import { AccountIcon, ChevronDownIcon } from "./shell-icons";
import { signOut } from "./sign-out";
import styles from "./shell.module.css";

export type AccountInfo = { environment: "live" | "test"; keyHint: string; plan?: string };

export function AccountMenu({ account }: { account: AccountInfo }) {
  const settingsHref = `/settings${useRangeQuery()}`;
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const buttonId = useId();

  const items = () => Array.from(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
  const focusItem = (index: number) => {
    const all = items();
    all[(index + all.length) % all.length]?.focus();
  };

  function show(focus: "first" | "last") {
    setOpen(true);
    // The items exist once the menu has rendered.
    requestAnimationFrame(() => focusItem(focus === "first" ? 0 : -1));
  }

  function hide(returnFocus: boolean) {
    setOpen(false);
    if (returnFocus) button.current?.focus();
  }

  useDismissOutside(root, open, () => setOpen(false));

  function onMenuKey(e: KeyboardEvent) {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const moves: Record<string, () => void> = {
      ArrowDown: () => focusItem(at + 1),
      ArrowUp: () => focusItem(at - 1),
      Home: () => focusItem(0),
      End: () => focusItem(-1),
      Escape: () => hide(true),
    };
    if (e.key === "Tab") return setOpen(false);
    const move = moves[e.key];
    if (move) {
      e.preventDefault();
      move();
    }
  }

  async function doSignOut() {
    setBusy(true);
    setError("");
    const problem = await signOut();
    if (problem) {
      setError(problem);
      setBusy(false);
    }
  }

  return (
    <div className={styles.account} ref={root}>
      <button
        ref={button}
        id={buttonId}
        type="button"
        className={`header-button ${styles.accountButton}`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        data-testid="account-menu-button"
        onClick={() => (open ? hide(false) : show("first"))}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown" || e.key === "ArrowUp") {
            e.preventDefault();
            show(e.key === "ArrowDown" ? "first" : "last");
          }
        }}
      >
        <AccountIcon />
        <span className="visually-hidden-narrow">Account</span>
        <ChevronDownIcon />
      </button>
      {open && (
        <div
          id={menuId}
          ref={menu}
          role="menu"
          aria-labelledby={buttonId}
          className={`popover ${styles.menu}`}
          onKeyDown={onMenuKey}
          data-testid="account-menu"
        >
          <div className={styles.menuInfo} role="presentation">
            <span className="mono" data-testid="account-key-hint">
              {account.keyHint}
            </span>
            <span className="muted small">
              {account.environment === "test" ? "Test key" : "Live key"}
              {account.plan ? ` · ${account.plan} plan` : ""}
            </span>
          </div>
          <Link role="menuitem" tabIndex={-1} className={styles.menuItem} href={settingsHref} onClick={() => setOpen(false)}>
            Settings
          </Link>
          <button
            role="menuitem"
            tabIndex={-1}
            type="button"
            className={styles.menuItem}
            disabled={busy}
            onClick={() => void doSignOut()}
            data-testid="menu-sign-out"
          >
            {busy ? "Signing out…" : "Sign out"}
          </button>
        </div>
      )}
      {error && (
        <p className={`field-error ${styles.menuError}`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
