// A titled widget card: a section named by its heading, with optional actions (export, links).
import { useId, type ReactNode } from "react";

export function Card({
  title,
  description,
  actions,
  children,
  className,
  testId,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  testId?: string;
}) {
  const id = useId();
  return (
    <section className={`card ${className ?? ""}`} aria-labelledby={id} data-testid={testId}>
      <div className="card-header">
        <div>
          <h2 id={id}>{title}</h2>
          {description && <p>{description}</p>}
        </div>
        {actions && <div className="card-actions">{actions}</div>}
      </div>
      {children}
    </section>
  );
}
