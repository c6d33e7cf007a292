import type { Metadata } from "next";
import { Inbox } from "@/components/inbox";
import { roleAllows } from "@/lib/auth/roles";
import { currentUser } from "@/lib/auth/session";
import { crewCatalog } from "@/lib/crew/registry";

export const metadata: Metadata = { title: "Inbox" };
export const dynamic = "force-dynamic";

export default async function InboxPage() {
  const user = await currentUser();
  const expected = Object.fromEntries(
    [...crewCatalog().crews.values()].map((c) => [
      c.slug,
      Object.fromEntries(c.tasks.map((t) => [t.id, t.expected_output])),
    ]),
  );
  return (
    <>
      <h1>Inbox</h1>
      <Inbox canReview={user ? roleAllows(user.role, "review") : false} expected={expected} />
    </>
  );
}
