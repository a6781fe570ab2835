"use client";
// The main navigation, marking the current section with aria-current. Each link carries the page's
// range (`from`, `to`, `tz`) and comparison (`compare`, `compare_from`, `compare_to`) to the next
// page, so what was chosen in the header stays as one moves around (a page without changes keeps the
// comparison for the next that has them). A page showing its default range ("Last 30 days", no
// range in its URL) hands the lists that range's days: a list without a range is all time, and the
// header's range must not change on the way unasked. Otherwise, without a range in the URL, the
// links carry none and each page keeps its own default.
import Link from "next/link";
import { useQueryStates } from "nuqs";
import { usePathname } from "next/navigation";
import { useId, useRef, useState } from "react";
import { comparisonSearchParams } from "@/lib/range/comparison";
import { dateRangeSearchParams } from "@/lib/range/date-range";
import { isListPath } from "@/lib/range/list-range";
import { useDateRange } from "@/lib/range/use-date-range";
import { rangeNotUsedNote } from "@/components/range/range-scope";
import { isQueryPage } from "@/lib/ui/page-params";
import { NAV_PAGES } from "@/lib/ui/pages";
import { urlSerializer } from "@/lib/ui/url-state";
import { useDismissOutside } from "@/components/ui/use-dismiss-outside";
import { MenuIcon } from "./shell-icons";

const carried = { ...dateRangeSearchParams, ...comparisonSearchParams };
const rangeQuery = urlSerializer(carried);

/** The range and comparison parameters of the current URL, as a query string for another page ("" without any). */
export function useRangeQuery(): string {
  const [values] = useQueryStates(carried);
  return rangeQuery(values);
}

/**
 * What a link to a list carries from this page: its range, or, on a page that shows its default
 * range (not a list, no range in the URL), that range's days in the viewer's zone.
 */
function useListQuery(): string {
  const pathname = usePathname();
  const [values] = useQueryStates(carried);
  const { range, explicit, problems } = useDateRange();
  const showsDefault = isQueryPage(pathname) && !isListPath(pathname) && rangeNotUsedNote(pathname) === null;
  const bad = Boolean(problems.from || problems.to || problems.tz);
  if (!showsDefault || explicit || bad || values.from || values.to) return rangeQuery(values);
  return rangeQuery({ ...values, from: range.from, to: range.to, tz: range.tz });
}

const isCurrent = (href: string, pathname: string) => (href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`));

/**
 * On phones the eight links would take three rows of the first screen: there they fold behind one
 * menu button ("Pages", which names the current one to screen readers; the page's heading shows it),
 * opening them as a panel under the header's first row (Escape, a link, or a press or focus
 * elsewhere closes it; Escape puts focus back on the button). Wider, the button is not drawn
 * and the links are always shown (CSS decides, so the server's HTML is right at any width).
 */
export function NavLinks() {
  const pathname = usePathname();
  const carry = useRangeQuery();
  const listCarry = useListQuery();
  const [open, setOpen] = useState(false);
  const [openedAt, setOpenedAt] = useState(pathname);
  const listId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const root = useRef<HTMLElement>(null);
  useDismissOutside(root, open, () => setOpen(false), { focus: true });
  // A link followed closes the panel: the next page is its answer.
  if (open && openedAt !== pathname) setOpen(false);
  const here = NAV_PAGES.find((item) => isCurrent(item.href, pathname));
  return (
    <nav
      ref={root}
      className="nav"
      aria-label="Main"
      data-open={open}
      onKeyDown={(e) => {
        if (e.key === "Escape" && open) {
          setOpen(false);
          button.current?.focus();
        }
      }}
    >
      <button
        ref={button}
        type="button"
        className="header-button nav-toggle"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => {
          setOpenedAt(pathname);
          setOpen(!open);
        }}
        data-testid="nav-toggle"
      >
        <MenuIcon />
        <span className="visually-hidden">Pages{here ? ` (this is ${here.label})` : ""}</span>
      </button>
      <ul id={listId} className="nav-list">
        {NAV_PAGES.map((item) => (
          <li key={item.href}>
            <Link
              className="nav-link"
              href={`${item.href}${isListPath(item.href) ? listCarry : carry}`}
              aria-current={isCurrent(item.href, pathname) ? "page" : undefined}
              onClick={() => setOpen(false)}
            >
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
