"use client";
// The header's "Views": the workspace's saved views, each a plain link to its page and query (so a
// middle click or "open in new tab" works, and a relative range is read on the day it is opened).
// A disclosure rather than an ARIA menu: its panel holds links, and in "Manage" mode text fields and
// buttons to rename and delete in place, which a menu's roles cannot hold. Tab moves through it,
// Escape closes it and returns to the button, a click or focus elsewhere closes it. Renaming: Enter
// saves, Escape cancels. Deleting asks once more in place. The list is React Query's (`["views"]`),
// refreshed after every change, read when the panel first opens.
import { useId, useRef, useState, type FormEvent } from "react";
import { ChevronDownIcon } from "@/components/shell/shell-icons";
import { useDismissOutside } from "@/components/ui/use-dismiss-outside";
import { useSavedViews, useViewWrites, viewHref, ViewProblem, type SavedView } from "@/lib/queries/views";
import { isQueryPage } from "@/lib/ui/page-params";
import { NAV_PAGES } from "@/lib/ui/pages";
import { BookmarkIcon } from "./view-icons";
import styles from "./views.module.css";

const pageLabel = (path: string) => NAV_PAGES.find((p) => p.href === path)?.label ?? path;

export function ViewsMenu() {
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  const [manage, setManage] = useState(false);
  const [status, setStatus] = useState("");
  const views = useSavedViews(opened);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const id = useId();

  function hide(returnFocus: boolean) {
    setOpen(false);
    setManage(false);
    if (returnFocus) button.current?.focus();
  }

  useDismissOutside(root, open, () => hide(false), { focus: true });

  // Only the views a link can safely be made of (the server keeps nothing else; this is the browser's own check).
  const list = (views.data ?? []).filter((v) => isQueryPage(v.path));

  return (
    <div
      className={styles.views}
      ref={root}
      onKeyDown={(e) => {
        if (e.key === "Escape" && open && !e.defaultPrevented) {
          e.preventDefault();
          hide(true);
        }
      }}
    >
      <button
        ref={button}
        type="button"
        className={`header-button ${styles.viewsButton}`}
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        data-testid="views-button"
        onClick={() => {
          if (open) return hide(false);
          setOpened(true);
          setOpen(true);
        }}
      >
        <BookmarkIcon />
        <span className="visually-hidden-narrow">Views</span>
        <span className="visually-hidden"> (saved views)</span>
        <ChevronDownIcon />
      </button>
      {open && (
        <div id={id} className={`popover ${styles.panel}`} data-testid="views-panel">
          <div className={styles.panelHead}>
            <h2 id={`${id}-title`} className={styles.panelTitle}>
              Saved views
            </h2>
            {list.length > 0 && (
              <button
                type="button"
                className="button button-secondary button-small"
                aria-pressed={manage}
                onClick={() => setManage((m) => !m)}
                data-testid="views-manage"
              >
                {manage ? "Done" : "Manage"}
              </button>
            )}
          </div>
          {views.isPending ? (
            <p className="muted small">Loading the views…</p>
          ) : views.isError ? (
            <div className={styles.problem}>
              <p className="field-error" role="alert">
                {views.error instanceof ViewProblem ? views.error.message : "The saved views could not be read."}
              </p>
              <button type="button" className="button button-secondary button-small" onClick={() => void views.refetch()}>
                Try again
              </button>
            </div>
          ) : list.length === 0 ? (
            <p className="muted small" data-testid="views-empty">
              No saved views yet. Set the filters and range you want on a page, then choose “Save view” beside the range: the view is listed here for everyone
              in this workspace.
            </p>
          ) : (
            <ul className={styles.list} aria-labelledby={`${id}-title`} data-testid="views-list">
              {list.map((view) =>
                manage ? <ManagedView key={view.id} view={view} onDone={setStatus} /> : <ViewLink key={view.id} view={view} onOpen={() => hide(false)} />,
              )}
            </ul>
          )}
        </div>
      )}
      <span className="visually-hidden" role="status">
        {status}
      </span>
    </div>
  );
}

function ViewLink({ view, onOpen }: { view: SavedView; onOpen: () => void }) {
  return (
    <li>
      {/* A full page load, not a client transition: a relative range is turned into its days on the server (proxy.ts). */}
      <a
        className={styles.viewLink}
        href={viewHref(view)}
        // Opened in another tab (Ctrl, Cmd, Shift, middle button), this page stays as it is, the list open.
        onClick={(e) => {
          if (e.button === 0 && !e.ctrlKey && !e.metaKey && !e.shiftKey && !e.altKey) onOpen();
        }}
        data-testid="view-link"
      >
        <span className={styles.viewName}>{view.name}</span>
        <span className="muted small">{pageLabel(view.path)}</span>
      </a>
    </li>
  );
}

function ManagedView({ view, onDone }: { view: SavedView; onDone: (status: string) => void }) {
  const { rename, remove } = useViewWrites();
  const [mode, setMode] = useState<"idle" | "rename" | "delete">("idle");
  const [name, setName] = useState(view.name);
  const [problem, setProblem] = useState("");
  const id = useId();
  const renameButton = useRef<HTMLButtonElement>(null);

  function back() {
    setMode("idle");
    setProblem("");
    requestAnimationFrame(() => renameButton.current?.focus());
  }

  async function submitRename(e: FormEvent) {
    e.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setProblem("Give the view a name.");
    if (trimmed === view.name) return back();
    try {
      await rename.mutateAsync({ id: view.id, name: trimmed });
      onDone(`Renamed to “${trimmed}”.`);
      back();
    } catch (error) {
      setProblem(error instanceof ViewProblem ? error.message : "The view could not be renamed. Try again.");
    }
  }

  async function confirmDelete() {
    try {
      await remove.mutateAsync(view.id);
      onDone(`Deleted “${view.name}”.`);
    } catch (error) {
      setProblem(error instanceof ViewProblem ? error.message : "The view could not be deleted. Try again.");
    }
  }

  if (mode === "rename") {
    return (
      <li className={styles.managed}>
        <form
          className={styles.renameForm}
          onSubmit={(e) => void submitRename(e)}
          noValidate
          onKeyDown={(e) => {
            if (e.key === "Escape") {
              e.preventDefault();
              back();
            }
          }}
        >
          <label htmlFor={`${id}-name`} className="visually-hidden">
            New name for “{view.name}”
          </label>
          <input
            id={`${id}-name`}
            className="input"
            value={name}
            autoFocus
            onChange={(e) => setName(e.target.value)}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-error` : undefined}
            data-testid="view-rename-input"
          />
          <div className={styles.rowActions}>
            <button type="submit" className="button button-small" disabled={rename.isPending} data-testid="view-rename-save">
              Save
            </button>
            <button type="button" className="button button-secondary button-small" onClick={back}>
              Cancel
            </button>
          </div>
          {problem && (
            <span id={`${id}-error`} className="field-error" role="alert">
              {problem}
            </span>
          )}
        </form>
      </li>
    );
  }

  return (
    <li className={styles.managed}>
      <span className={styles.viewName}>{view.name}</span>
      {mode === "delete" ? (
        <div className={styles.rowActions} role="group" aria-label={`Delete “${view.name}”?`}>
          <span className="small">Delete for everyone?</span>
          <button
            type="button"
            className="button button-danger button-small"
            autoFocus
            disabled={remove.isPending}
            onClick={() => void confirmDelete()}
            data-testid="view-delete-confirm"
          >
            Delete
          </button>
          <button type="button" className="button button-secondary button-small" onClick={back}>
            Keep
          </button>
        </div>
      ) : (
        <div className={styles.rowActions}>
          <button
            ref={renameButton}
            type="button"
            className="button button-secondary button-small"
            aria-label={`Rename “${view.name}”`}
            onClick={() => setMode("rename")}
            data-testid="view-rename"
          >
            Rename
          </button>
          <button
            type="button"
            className="button button-secondary button-small"
            aria-label={`Delete “${view.name}”`}
            onClick={() => setMode("delete")}
            data-testid="view-delete"
          >
            Delete
          </button>
        </div>
      )}
      {problem && (
        <span className="field-error" role="alert">
          {problem}
        </span>
      )}
    </li>
  );
}
