// The runs list's filter changes, each a pure edit of the URL's query.

/** Sets (or clears, with "") filters; any change goes back to the first page. */
export function withFilters(search: string, changes: Record<string, string | undefined>) {
  const next = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    next.delete(key);
    if (value) next.set(key, value);
  }
  next.delete("cursor");
  return next;
}

/** Adds a tag filter once; back to the first page. */
export function withMeta(search: string, tag: string) {
  const next = new URLSearchParams(search);
  if (!next.getAll("meta").includes(tag)) next.append("meta", tag);
  next.delete("cursor");
  return next;
}

/** Removes a tag filter, keeping the others in order; back to the first page. */
export function withoutMeta(search: string, tag: string) {
  const next = new URLSearchParams(search);
  const rest = next.getAll("meta").filter((t) => t !== tag);
  next.delete("meta");
  for (const t of rest) next.append("meta", t);
  next.delete("cursor");
  return next;
}

/** The same filters at another page. */
export function atCursor(search: string, cursor: string) {
  const next = new URLSearchParams(search);
  next.set("cursor", cursor);
  return next;
}
