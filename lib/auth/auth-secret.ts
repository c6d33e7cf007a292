import { env } from "@/lib/config/env";
import { dataDirSecret } from "@/lib/config/secrets";

/** The key that signs and encrypts session cookies: AUTH_SECRET, else one generated into DATA_DIR. */
export const authSecret = () => env().AUTH_SECRET ?? dataDirSecret("auth-secret");

// next-auth names the cookie after the scheme it was set over; the proxy accepts either.
export const SESSION_COOKIES = ["__Secure-authjs.session-token", "authjs.session-token"] as const;
