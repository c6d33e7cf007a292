import type { ReactNode } from "react";
import { Providers } from "@/components/providers";
import { requireUser } from "@/lib/auth/require-user";
import { signOut } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

// The chrome around every dashboard page. Each page checks who is asking itself (requireUser):
// Next renders pages beside their layout, so this check alone would not keep a page's data in.
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const { user } = await requireUser();
  async function signOutAction() {
    "use server";
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
