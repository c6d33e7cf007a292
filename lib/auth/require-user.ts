import "server-only";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import type { Principal } from "./principal";
import { type Action, roleAllows } from "./roles";
import { currentUser, type SessionUser } from "./session";

// One database read per request however many layouts, pages and metadata functions ask.
const currentUserOnce = cache(currentUser);

/**
 * The person a dashboard page renders for, read fresh from the database, and their principal for
 * the data functions. Every page (and generateMetadata) calls this itself before reading any
 * data: Next renders a page beside its layout, so a check in the layout alone does not stop the
 * page's payload from streaming out. Signed out → /sign-in; a role below `action` → 404.
 */
export async function requireUser(
  action: Action = "read",
): Promise<{ user: SessionUser; principal: Principal }> {
  const user = await currentUserOnce();
  if (!user) redirect("/sign-in");
  if (!roleAllows(user.role, action)) notFound();
  return {
    user,
    principal: { kind: "session", userId: user.id, email: user.email, role: user.role },
  };
}
