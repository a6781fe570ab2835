"use client";
// The main navigation, marking the current section with aria-current.
import Link from "next/link";
import { usePathname } from "next/navigation";

const ITEMS = [
  { href: "/", label: "Overview" },
  { href: "/visitors", label: "Visitors" },
  { href: "/mentions", label: "Mentions" },
  { href: "/platforms", label: "AI platforms" },
  { href: "/intelligence", label: "Intelligence" },
  { href: "/settings", label: "Settings" },
] as const;

export function NavLinks() {
  const pathname = usePathname();
  return (
    <nav className="nav" aria-label="Main">
      <ul className="nav-list">
        {ITEMS.map((item) => {
          const current = item.href === "/" ? pathname === "/" : pathname === item.href || pathname.startsWith(`${item.href}/`);
          return (
            <li key={item.href}>
              <Link className="nav-link" href={item.href} aria-current={current ? "page" : undefined}>
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
