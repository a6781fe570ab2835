// A titled widget card: a section named by its heading, with optional actions (export, links).
import { useId, type ReactNode } from "react";

export function Card({
  title,
  description,
  actions,
  children,
  className,
  testId,
  id,
  level = 2,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  testId?: string;
  /** The section's id, for a link to it from elsewhere on the page. */
  id?: string;
  /** The heading's level: 3 for a card inside a section that has its own heading. */
  level?: 2 | 3;
}) {
  const headingId = useId();
  const Heading = level === 3 ? "h3" : "h2";
  return (
    <section className={`card ${className ?? ""}`} aria-labelledby={headingId} data-testid={testId} id={id}>
      <div className="card-header">
        <div>
          <Heading id={headingId}>{title}</Heading>
          {description && <p>{description}</p>}
        </div>
        {actions && <div className="card-actions">{actions}</div>}
      </div>
      {children}
    </section>
  );
}

/** What a widget's card says about it whatever the state of its answer. */
export type CardHead = { title: string; description?: ReactNode; testId: string };

/**
 * A widget's frame (Widget's `frame`) that is a card with actions from its answer: its title,
 * description and test id said once, around whatever the widget shows and the actions given.
 */
export function cardFrame(card: CardHead) {
  return function frame(body: ReactNode, actions?: ReactNode) {
    return (
      <Card {...card} actions={actions}>
        {body}
      </Card>
    );
  };
}
