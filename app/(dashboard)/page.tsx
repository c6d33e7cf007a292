import type { Metadata } from "next";
import { Overview } from "@/components/overview";
import { requireUser } from "@/lib/auth/require-user";

export const metadata: Metadata = { title: "Overview" };
export const dynamic = "force-dynamic";

export default async function OverviewPage() {
  await requireUser();
  return (
    <>
      <h1>Overview</h1>
      <Overview />
    </>
  );
}
