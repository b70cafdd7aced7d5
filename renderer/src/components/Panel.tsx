import type { ReactNode, Ref } from 'react';

/** A card with a title row (and optional actions) around one area of a page. */
export function Panel({
  title,
  actions,
  children,
  className,
  testId,
  ref,
}: {
  title: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  testId?: string;
  ref?: Ref<HTMLElement>;
}) {
  return (
    <section ref={ref} className={`panel ${className ?? ''}`.trim()} data-testid={testId}>
      <header className="panel-header">
        <h2 className="panel-title">{title}</h2>
        {actions ? <div className="panel-actions">{actions}</div> : null}
      </header>
      <div className="panel-body">{children}</div>
    </section>
  );
}
