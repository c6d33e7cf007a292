/** The first block of a UUID: enough to tell runs apart on screen; the full id is copied. */
export function shortId(id: string): string {
  return id.length > 8 ? id.slice(0, 8) : id;
}
