import type { ReactNode } from "react";
import { Alert } from "@/components/ui/alert";
import { Skeleton } from "@/components/ui/skeleton";

/** A crew page's list of schedules or triggers: its heading and action, then its state. */
export function ListSection({
  id,
  title,
  action,
  error,
  loading,
  empty,
  children,
}: {
  id: string;
  title: string;
  action?: ReactNode;
  error: Error | null;
  loading: boolean;
  /** What an empty list says (an EmptyState); null when it has items. */
  empty: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={id} className="m-0 font-semibold text-base">
          {title}
        </h2>
        {action}
      </div>
      {error ? (
        <Alert tone="danger" title={`Could not load the ${title.toLowerCase()}`}>
          {error.message} It retries on its own.
        </Alert>
      ) : loading ? (
        <Skeleton className="h-16" aria-busy="true" />
      ) : (
        (empty ?? <ul className="m-0 grid list-none divide-y rounded-lg border p-0">{children}</ul>)
      )}
    </section>
  );
}
