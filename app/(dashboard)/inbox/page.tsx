import type { Metadata } from "next";
import { Inbox } from "@/components/inbox";
import { requireUser } from "@/lib/auth/require-user";
import { roleAllows } from "@/lib/auth/roles";
import { crewsFor } from "@/lib/crew/registry";

export const metadata: Metadata = { title: "Inbox" };
export const dynamic = "force-dynamic";

export default async function InboxPage() {
  const { user, principal } = await requireUser();
  const expected = Object.fromEntries(
    [...crewsFor(principal).crews.values()].map((c) => [
      c.slug,
      Object.fromEntries(c.tasks.map((t) => [t.id, t.expected_output])),
    ]),
  );
  return (
    <>
      <h1>Inbox</h1>
      <Inbox canReview={roleAllows(user.role, "review")} expected={expected} />
    </>
  );
}
