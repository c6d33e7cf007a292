"use client";

import type { ReactNode } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "@/components/ui/dialog";
import { SettingsForm } from "./fields";

/** A small button that asks before it acts: revoke, disable, remove, disconnect. */
export function ConfirmButton({
  children,
  label,
  title,
  description,
  confirmLabel,
  onConfirm,
  size = "sm",
  variant = "ghost",
  disabled,
}: {
  children: ReactNode;
  /** The button's accessible name, when its text alone would be ambiguous in a list. */
  label?: string;
  title: string;
  description: string;
  confirmLabel: string;
  onConfirm: () => unknown;
  size?: "sm" | "md";
  variant?: "ghost" | "secondary";
  disabled?: boolean;
}) {
  return (
    <ConfirmDialog
      trigger={
        <Button size={size} variant={variant} aria-label={label} disabled={disabled}>
          {children}
        </Button>
      }
      title={title}
      description={description}
      confirmLabel={confirmLabel}
      onConfirm={onConfirm}
    />
  );
}

type Confirm = { verb: string; name: string; description: string; onConfirm: () => unknown };

/** "Remove", "Disable"…: a button named for what it does to whom, which asks first. */
export function ConfirmAction({ verb, name, description, onConfirm }: Confirm) {
  return (
    <ConfirmButton
      label={`${verb} ${name}`}
      title={`${verb} ${name}?`}
      description={description}
      confirmLabel={verb}
      onConfirm={onConfirm}
    >
      {verb}
    </ConfirmButton>
  );
}

/** A dialog the section opens for one thing (`open`), closed by Escape, Close or `onClose`. */
export function SectionDialog({
  open,
  onClose,
  title,
  description,
  className,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      {open && (
        <DialogContent title={title} description={description} className={className}>
          {children}
        </DialogContent>
      )}
    </Dialog>
  );
}

/** A dialog holding one form: its fields, what went wrong, Cancel and the submit button. */
export function FormDialog({
  open,
  onClose,
  title,
  description,
  onSubmit,
  submitLabel,
  busy,
  error,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: string;
  onSubmit: () => void;
  submitLabel: string;
  busy: boolean;
  error?: Error | null;
  children: ReactNode;
}) {
  return (
    <SectionDialog open={open} onClose={onClose} title={title} description={description}>
      <SettingsForm aria-label={title} className="grid gap-4" onSubmit={onSubmit}>
        {children}
        {error && <Alert tone="danger">{error.message}</Alert>}
        <DialogFooter>
          <DialogClose asChild>
            <Button>Cancel</Button>
          </DialogClose>
          <Button type="submit" variant="primary" disabled={busy}>
            {submitLabel}
          </Button>
        </DialogFooter>
      </SettingsForm>
    </SectionDialog>
  );
}
