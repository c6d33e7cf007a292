import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { LazyMarkdown } from "@/components/run/lazy-markdown";
import { PageHeader } from "@/components/shell/page-header";
import {
  IssueCrumbs,
  IssueFacts,
  IssueHistory,
  IssueSection,
  SubIssues,
} from "@/components/tracker/issue-detail";
import { requireUser } from "@/lib/auth/require-user";
import { getDb } from "@/lib/db";
import { issueDetail } from "@/lib/tracker/embedded/browse";

export const dynamic = "force-dynamic";

export async function generateMetadata({
  params,
}: {
  params: Promise<{ identifier: string }>;
}): Promise<Metadata> {
  await requireUser();
  return { title: (await params).identifier };
}

export default async function IssuePage({ params }: { params: Promise<{ identifier: string }> }) {
  const { principal } = await requireUser();
  const detail = await issueDetail(await getDb(), principal, (await params).identifier);
  if (!detail) notFound();
  const { issue } = detail;
  return (
    <>
      <IssueCrumbs detail={detail} />
      <PageHeader title={issue.title} />
      <div className="grid gap-6 lg:grid-cols-[1fr_18rem]">
        <div className="grid min-w-0 content-start gap-6">
          <IssueSection id="issue-description" title="Description">
            {/* Formatted in the browser (and only a bounded prefix): never on the server. */}
            {issue.description ? (
              <LazyMarkdown text={issue.description} />
            ) : (
              <p className="text-muted-foreground text-sm">No description.</p>
            )}
          </IssueSection>
          <IssueSection
            id="issue-subissues"
            title={<>Sub-issues{detail.more.subIssues && " (the first 200)"}</>}
          >
            <SubIssues subIssues={detail.subIssues} />
          </IssueSection>
          <IssueSection
            id="issue-history"
            title={<>History{detail.more.history && " (the latest 200 changes)"}</>}
          >
            <IssueHistory history={detail.history} />
          </IssueSection>
        </div>
        <IssueSection id="issue-details" title="Details" className="content-start self-start">
          <IssueFacts issue={issue} />
        </IssueSection>
      </div>
    </>
  );
}
