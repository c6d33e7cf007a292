export function json(data: unknown, init: ResponseInit = {}) {
  return jsonText(JSON.stringify(data), init);
}

/** `json` for a body already serialised (kept from an earlier answer). */
export function jsonText(text: string, init: ResponseInit = {}) {
  return new Response(text, {
    ...init,
    headers: { "content-type": "application/json", "cache-control": "no-store", ...init.headers },
  });
}
