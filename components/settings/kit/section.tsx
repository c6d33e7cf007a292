import type { ReactNode } from "react";
import { Alert } from "@/components/ui/alert";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Skeleton } from "@/components/ui/skeleton";

/**
 * One Settings section: a card named by its title (a region for assistive technology), a line
 * on what it is for, optional controls beside the title, and its content in one column.
 */
export function SettingsSection({
  id,
  title,
  description,
  actions,
  gap = "gap-4",
  children,
}: {
  /** The title's id is `${id}-title`; the card is labelled by it. */
  id: string;
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  gap?: "gap-3" | "gap-4";
  children: ReactNode;
}) {
  return (
    <Card aria-labelledby={`${id}-title`}>
      <CardHeader>
        {description ? (
          <div className="grid gap-1">
            <CardTitle id={`${id}-title`}>{title}</CardTitle>
            <CardDescription>{description}</CardDescription>
          </div>
        ) : (
          <CardTitle id={`${id}-title`}>{title}</CardTitle>
        )}
        {actions}
      </CardHeader>
      <CardContent className={cn("grid [&>*]:min-w-0", gap)}>{children}</CardContent>
    </Card>
  );
}

/** A placeholder while a section's first answer is on its way (neither data nor error yet). */
export function Loading({
  query,
  className,
}: {
  query: { data: unknown; error: unknown };
  className: string;
}) {
  if (query.data !== undefined || query.error) return null;
  return <Skeleton className={className} />;
}

/** The first of several things that went wrong, as one danger alert (nothing when none did). */
export function Problem({
  errors,
  title,
  children,
}: {
  errors: (Error | null | undefined)[];
  title?: string;
  /** Said after the message, e.g. what happens next. */
  children?: ReactNode;
}) {
  const error = errors.find((e) => e);
  if (!error) return null;
  return (
    <Alert tone="danger" title={title}>
      {error.message}
      {children}
    </Alert>
  );
}

/** The outcome of a "Test connection": what answered, or why nothing did. */
export function CheckResult({ result }: { result?: { ok: boolean; text: ReactNode } }) {
  if (!result) return null;
  return <Alert tone={result.ok ? "success" : "danger"}>{result.text}</Alert>;
}

/** A value that is not there, said quietly. */
export function Missing({ children = "—" }: { children?: ReactNode }) {
  return <span className="text-muted-foreground">{children}</span>;
}
