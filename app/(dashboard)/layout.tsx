import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { Providers } from "@/components/providers";
import { currentUser, signOut } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

// Every dashboard page needs someone signed in; each page checks the role it needs on top.
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await currentUser();
  if (!user) redirect("/sign-in");
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
