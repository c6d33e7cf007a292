import type { Metadata } from "next";
import { Overview } from "@/components/overview/overview";
import { PageHeader } from "@/components/shell/page-header";
import { requireUser } from "@/lib/auth/require-user";

export const metadata: Metadata = { title: "Overview" };
export const dynamic = "force-dynamic";

export default async function OverviewPage() {
  await requireUser();
  return (
    <>
      <PageHeader title="Overview" description="Your runs over the last 14 days, updated live." />
      <Overview />
    </>
  );
}
