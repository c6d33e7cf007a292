import { env } from "./env";

/** Where other systems reach this server (webhooks, OAuth redirects): PUBLIC_URL, else this port. */
export const publicUrl = () =>
  (env().PUBLIC_URL ?? `http://localhost:${env().PORT}`).replace(/\/+$/, "");
