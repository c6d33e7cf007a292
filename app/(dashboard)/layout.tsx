import type { ReactNode } from "react";
import { CrewNamesProvider } from "@/components/crew-names";
import { Providers } from "@/components/providers";
import { AppShell } from "@/components/shell/app-shell";
import { requireUser } from "@/lib/auth/require-user";
import { currentUser, signOut } from "@/lib/auth/session";
import { endSessions } from "@/lib/auth/users";
import { crewsFor } from "@/lib/crew/registry";
import { getDb } from "@/lib/db";

export const dynamic = "force-dynamic";

// The chrome around every dashboard page. Each page checks who is asking itself (requireUser):
// Next renders pages beside their layout, so this check alone would not keep a page's data in.
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const { user, principal } = await requireUser();
  const crewNames = Object.fromEntries(
    [...crewsFor(principal).crews.values()].map((c) => [c.slug, c.name]),
  );
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
    <Providers>
      <CrewNamesProvider names={crewNames}>
        <AppShell
          user={{ name: user.name ?? null, email: user.email, role: user.role }}
          signOut={signOutAction}
        >
          {children}
        </AppShell>
      </CrewNamesProvider>
    </Providers>
  );
}
