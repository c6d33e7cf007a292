import type { ReactNode } from "react";

/** An error said aloud to assistive technology; renders nothing when there is none. */
export function ErrorText({ children }: { children: ReactNode }) {
  if (children === null || children === undefined || children === false || children === "")
    return null;
  return (
    <p role="alert" className="form-error">
      {children}
    </p>
  );
}
