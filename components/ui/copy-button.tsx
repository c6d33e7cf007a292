"use client";

import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { Button } from "./button";

/** Copies `text`; says so for a moment. Icon-only unless given a label. */
export function CopyButton({
  text,
  label,
  what = "value",
  className,
}: {
  text: string;
  label?: string;
  what?: string;
  className?: string;
}) {
  const [done, setDone] = useState(false);
  return (
    <Button
      size={label ? "sm" : "icon-xs"}
      variant={label ? "secondary" : "ghost"}
      className={className}
      aria-label={label ? undefined : `Copy ${what}`}
      onClick={async () => {
        await navigator.clipboard.writeText(text);
        setDone(true);
        setTimeout(() => setDone(false), 1500);
      }}
    >
      {done ? <Check aria-hidden /> : <Copy aria-hidden />}
      {label && (done ? "Copied" : label)}
      <span className="sr-only" aria-live="polite">
        {done ? "Copied" : ""}
      </span>
    </Button>
  );
}
