// What several areas' endpoints say alike. Not an area: it exports no endpoint.

/** A crew's own endpoints sit under its base URL. */
export const BASE = "/api/crews/{crew}";
export const read = { action: "read" } as const;
export const start = { action: "start" } as const;
export const noCrew = { 404: "No such crew." };
export const malformed = "Malformed JSON or wrong value types.";
export const INVALID_BODY = {
  400: "Malformed JSON or not an object.",
  413: "Body too large.",
  422: "Invalid fields (`errors`).",
};
