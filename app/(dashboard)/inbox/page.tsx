import type { Metadata } from "next";
import { Suspense } from "react";
import { Inbox } from "@/components/inbox/inbox";
import type { CrewInfo, TaskInfo } from "@/components/inbox/types";
import { PageHeader } from "@/components/shell/page-header";
import { requireUser } from "@/lib/auth/require-user";
import { roleAllows } from "@/lib/auth/roles";
import { crewsFor } from "@/lib/crew/registry";

export const metadata: Metadata = { title: "Inbox" };
export const dynamic = "force-dynamic";

export default async function InboxPage() {
  const { user, principal } = await requireUser();
  const crews = [...crewsFor(principal).crews.values()];
  const crewInfo: CrewInfo = Object.fromEntries(
    crews.map((c) => [c.slug, { name: c.name, inputs: c.inputs }]),
  );
  const tasks: TaskInfo = Object.fromEntries(
    crews.map((c) => [
      c.slug,
      Object.fromEntries(c.tasks.map((t) => [t.id, { name: t.name, expected: t.expected_output }])),
    ]),
  );
  return (
    <>
      <PageHeader
        title="Inbox"
        description="Task outputs and tool calls waiting for a human decision: claim one, edit it, approve it, or send it back (refuse a call) with feedback."
      />
      <Suspense>
        <Inbox
          canReview={roleAllows(user.role, "review")}
          tasks={tasks}
          crews={crewInfo}
          me={user.email}
        />
      </Suspense>
    </>
  );
}
