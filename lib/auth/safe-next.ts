// Only same-site paths: an open redirect after sign-in would be a phishing aid.
export const safeNext = (next: unknown) =>
  typeof next === "string" &&
  next.startsWith("/") &&
  !next.startsWith("//") &&
  !next.startsWith("/\\")
    ? next
    : "/";
