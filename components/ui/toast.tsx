"use client";

import { type ComponentType, useEffect, useState } from "react";
import type { ExternalToast, ToasterProps } from "sonner";

// sonner is loaded on the first toast, not with every page: a toast always follows something the
// person did, and the library would otherwise be a tenth of each page's first-load JavaScript.
type Sonner = typeof import("sonner");
let sonner: Sonner | null = null;
let loading: Promise<Sonner> | null = null;
let ready = false; // the Toaster has mounted and subscribed
const queue: ((s: Sonner) => void)[] = [];
let mountToaster: (() => void) | null = null;

const load = () => {
  loading ??= import("sonner").then((m) => {
    sonner = m;
    return m;
  });
  return loading;
};

function call(fn: (s: Sonner) => void) {
  if (ready && sonner) return fn(sonner);
  queue.push(fn);
  mountToaster?.();
}

type Message = Parameters<Sonner["toast"]>[0];
type Kind = "success" | "error" | "info" | "warning";
const kind =
  (k: Kind) =>
  (message: Message, data?: ExternalToast): void =>
    call((s) => s.toast[k](message, data));

/** sonner's toast, same arguments; pass `id` in data to dismiss or update it later. */
export const toast = Object.assign(
  (message: Message, data?: ExternalToast): void => call((s) => s.toast(message, data)),
  {
    success: kind("success"),
    error: kind("error"),
    info: kind("info"),
    warning: kind("warning"),
    dismiss: (id?: string | number): void => call((s) => s.toast.dismiss(id)),
  },
);

/** Where toasts appear: bottom right, in the page's theme, read out politely by screen readers. */
export function Toaster() {
  const [Impl, setImpl] = useState<ComponentType<ToasterProps> | null>(null);
  useEffect(() => {
    mountToaster = () => void load().then((m) => setImpl(() => m.Toaster));
    if (queue.length) mountToaster();
    return () => {
      mountToaster = null;
      ready = false;
    };
  }, []);
  // Runs after sonner's own effects (children first), so it has subscribed before the queue drains.
  useEffect(() => {
    if (!Impl || !sonner) return;
    ready = true;
    for (const fn of queue.splice(0)) fn(sonner);
  }, [Impl]);
  if (!Impl) return null;
  return (
    <Impl
      position="bottom-right"
      theme="system"
      closeButton
      toastOptions={{
        classNames: {
          toast: "bg-card! text-card-foreground! border-border!",
          description: "text-muted-foreground!",
          actionButton: "bg-primary! text-primary-foreground!",
        },
      }}
    />
  );
}
