import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { Providers } from "@/components/providers";
import { currentUser, signOut } from "@/lib/auth/session";
import { endSessions } from "@/lib/auth/users";
import { getDb } from "@/lib/db";

export const dynamic = "force-dynamic";

// Every dashboard page needs someone signed in; each page checks the role it needs on top.
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await currentUser();
  if (!user) redirect("/sign-in");
  async function signOutAction() {
    "use server";
    // End the session on the server first, so that a copy of this cookie is dead too; doing it
    // here rather than only in next-auth's signOut event means a failure shows instead of being
    // logged and swallowed while the cookie lives on.
    const me = await currentUser();
    if (me) await endSessions(await getDb(), me.id);
    await signOut({ redirectTo: "/sign-in" });
  }
  return (
    <>
      <div className="userbar">
        <span>
          {user.name ?? user.email} · <span className="badge">{user.role}</span>
        </span>
        <form action={signOutAction}>
          <button type="submit" className="link">
            Sign out
          </button>
        </form>
      </div>
      <Providers>{children}</Providers>
    </>
  );
}
