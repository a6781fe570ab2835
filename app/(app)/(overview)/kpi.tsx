// A KPI of the overview: its name, its figure and a foot with its change and what it is compared
// with. A figure that counts visitors is a real link to them (it opens in a new tab too, and looks
// like a link); one that cannot open a list says why in its foot, tied to the figure by
// aria-describedby so a screen reader hears the reason with the number.
import { AppLink as Link } from "@/components/shares/shared-view";
import type { ReactNode } from "react";
import { SkeletonLines } from "@/components/states/states";
import { formatNumber } from "@/lib/format/format";
import styles from "./overview.module.css";

export function Kpi({
  label,
  value,
  display,
  href,
  describedBy,
  foot,
  testId,
  bare = false,
}: {
  label: string;
  value?: number;
  display?: string;
  href?: string;
  /** The id of the text that says why the figure opens no list. */
  describedBy?: string;
  foot: ReactNode;
  testId: string;
  /** Inside another card: no card of its own. */
  bare?: boolean;
}) {
  const text = display ?? formatNumber(value);
  return (
    <div className={bare ? styles.bareKpi : "card"} data-testid={testId}>
      <p className="kpi-label">{label}</p>
      <p className="kpi-value" data-testid="kpi-value" aria-describedby={href ? undefined : describedBy}>
        {href ? (
          <Link href={href} prefetch={false} className={styles.kpiLink} aria-label={`${label}: ${text}, view these visitors`}>
            {text}
          </Link>
        ) : (
          text
        )}
      </p>
      <div className="kpi-foot">{foot}</div>
    </div>
  );
}

/** What a widget is still waiting for, said on screen (a Free key's first count can take half a minute). */
export function PendingNote({ children }: { children: ReactNode }) {
  return (
    <p className={`small muted ${styles.pending}`} data-testid="pending-note">
      {children}
    </p>
  );
}

/** Four KPI cards' worth of skeleton, while their figures load. */
export function KpiSkeleton() {
  return (
    <div className="grid grid-kpis">
      {[0, 1, 2, 3].map((i) => (
        <div className="card" key={i}>
          <SkeletonLines lines={3} height={20} />
        </div>
      ))}
    </div>
  );
}
