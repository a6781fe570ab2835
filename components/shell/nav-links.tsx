"use client";
// The main navigation, marking the current section with aria-current. Each link carries the page's
// range (`from`, `to`, `tz`) and comparison (`compare`, `compare_from`, `compare_to`) to the next
// page, so what was chosen in the header stays as one moves around (a page without changes keeps the
// comparison for the next that has them); without them in the URL the links carry none, and each
// page keeps its own default.
import Link from "next/link";
import { useQueryStates } from "nuqs";
import { usePathname } from "next/navigation";
import { comparisonSearchParams } from "@/lib/range/comparison";
import { dateRangeSearchParams } from "@/lib/range/date-range";
import { NAV_PAGES } from "@/lib/ui/pages";
import { urlSerializer } from "@/lib/ui/url-state";


const carried = { ...dateRangeSearchParams, ...comparisonSearchParams };
const rangeQuery = urlSerializer(carried);

/** The range and comparison parameters of the current URL, as a query string for another page ("" without any). */
export function useRangeQuery(): string {
  const [values] = useQueryStates(carried);
  return rangeQuery(values);
}

export function NavLinks() {
  const pathname = usePathname();
  const carry = useRangeQuery();
  return (
    <nav className="nav" aria-label="Main">
      <ul className="nav-list">
        {NAV_PAGES.map((item) => {
          const current = item.href === "/" ? pathname === "/" : pathname === item.href || pathname.startsWith(`${item.href}/`);
          return (
            <li key={item.href}>
              <Link className="nav-link" href={`${item.href}${carry}`} aria-current={current ? "page" : undefined}>
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
