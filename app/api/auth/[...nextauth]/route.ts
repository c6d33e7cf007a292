// /api/auth/* — next-auth's sign-in, sign-out and session endpoints.
import { handlers } from "@/lib/auth/session";

export const { GET, POST } = handlers;
