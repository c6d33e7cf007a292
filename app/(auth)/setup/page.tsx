import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SetupForm } from "@/components/auth/setup-form";
import { countUsersWithPassword } from "@/lib/auth/users";
import { getDb } from "@/lib/db";

export const metadata: Metadata = { title: "First-run setup" };
export const dynamic = "force-dynamic";

// Once someone can sign in, this page is gone.
export default async function SetupPage() {
  if ((await countUsersWithPassword(await getDb())) > 0) redirect("/sign-in");
  return (
    <div className="grid gap-5">
      <div className="grid gap-1">
        <h1 className="font-semibold text-lg">Welcome to Crewdeck</h1>
        <p className="text-muted-foreground text-sm">
          Create the first administrator. You can invite the rest of the team afterwards.
        </p>
      </div>
      <SetupForm />
    </div>
  );
}
