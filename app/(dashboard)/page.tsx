import type { Metadata } from "next";
import { Overview } from "@/components/overview";

export const metadata: Metadata = { title: "Overview" };
export const dynamic = "force-dynamic";

export default function OverviewPage() {
  return (
    <>
      <h1>Overview</h1>
      <Overview />
    </>
  );
}
