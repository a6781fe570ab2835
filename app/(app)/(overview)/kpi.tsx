// A KPI card of the overview: its name, its figure (a link to the visitors behind it where the list
// can show them) and a foot with its change and what it is compared with.
import Link from "next/link";
import type { ReactNode } from "react";
import { SkeletonLines } from "@/components/states/states";
import { formatNumber } from "@/lib/format/format";
import styles from "./overview.module.css";

export function Kpi({ label, value, display, href, foot, testId }: { label: string; value?: number; display?: string; href?: string; foot: ReactNode; testId: string }) {
  const text = display ?? formatNumber(value);
  return (
    <div className="card" data-testid={testId}>
      <p className="kpi-label">{label}</p>
      <p className="kpi-value" data-testid="kpi-value">
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
