import type { ReactNode } from "react";
import { cn } from "./cn";
import { Label } from "./input";

/**
 * A labelled control with optional help and error text, wired by id: the control gets
 * aria-describedby and aria-invalid from the caller through `describedBy(id)`.
 */
export function Field({
  id,
  label,
  help,
  error,
  required,
  className,
  children,
}: {
  id: string;
  label: ReactNode;
  help?: ReactNode;
  error?: string;
  required?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn("grid gap-1.5", className)}>
      <Label htmlFor={id}>
        {label}
        {required && (
          <span aria-hidden className="ml-0.5 text-muted-foreground">
            *
          </span>
        )}
      </Label>
      {children}
      <FieldNotes id={id} help={help} error={error} />
    </div>
  );
}

/** A control's help and error text, with the ids fieldAria points it to. */
export function FieldNotes({ id, help, error }: { id: string; help?: ReactNode; error?: string }) {
  return (
    <>
      {help && (
        <p id={`${id}-help`} className="text-muted-foreground text-xs">
          {help}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-tone-danger-foreground text-xs">
          {error}
        </p>
      )}
    </>
  );
}

/** The aria attributes a control inside <Field> needs. */
export function fieldAria(id: string, { help, error }: { help?: unknown; error?: string }) {
  const ids = [help ? `${id}-help` : null, error ? `${id}-error` : null].filter(Boolean);
  return {
    id,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": ids.length ? ids.join(" ") : undefined,
  } as const;
}
