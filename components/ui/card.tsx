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
