import { randomUUID } from "node:crypto";
import type { Principal } from "@/lib/auth/principal";
import type { Role } from "@/lib/config/roles";

/** An organization token's caller: sees every run. */
export const ORG: Principal = { kind: "org", tokenId: null };

/** A person's token, for data functions that scope what they return to the caller's own. */
export function userToken(userId: string, email: string, role: Role = "operator"): Principal {
  return { kind: "user", tokenId: randomUUID(), userId, email, role };
}
