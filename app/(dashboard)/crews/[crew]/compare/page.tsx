import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { RunCompare } from "@/components/run/run-compare";
import { PageHeader } from "@/components/shell/page-header";
import { requireUser } from "@/lib/auth/require-user";
import { getDb } from "@/lib/db";
import { crewForPage } from "@/lib/deployments/crew-for-page";
import { shortId } from "@/lib/format/id";
import { loadModelPrices } from "@/lib/run-model/pricing";
import { toStatusResponse } from "@/lib/runs/status-view";
import { runOr404 } from "../run-or-404";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Compare runs" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** Two runs of one crew side by side: ?a=<run>&b=<run> (each checked for the reader, as /status). */
export default async function ComparePage({
  params,
  searchParams,
}: {
  params: Promise<{ crew: string }>;
  searchParams: Promise<{ a?: string | string[]; b?: string | string[] }>;
}) {
  const { crew: slug } = await params;
  const { principal } = await requireUser();
  const crew = await crewForPage(principal, slug, { existingRun: true });
  if (!crew) notFound();
  const query = await searchParams;
  const [a, b] = [one(query.a), one(query.b)];
  if (!a || !b) notFound();
  const db = await getDb();
  const prices = await loadModelPrices(db);
  const load = (id: string) =>
    runOr404({ db, crew: crew.slug, id, principal }).then((row) => toStatusResponse(row, prices));
  const [left, right] = await Promise.all([load(a), load(b)]);
  const run = (id: string) => `/crews/${encodeURIComponent(crew.slug)}/runs/${id}`;
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-muted-foreground text-sm">
        <ol className="flex flex-wrap items-center gap-1.5">
          <li>
            <Link href="/runs" className="hover:text-foreground hover:underline">
              Runs
            </Link>
          </li>
          <li aria-hidden>/</li>
          <li>
            <Link href={run(a)} className="font-mono text-xs hover:underline">
              {shortId(a)}
            </Link>
          </li>
          <li aria-hidden>/</li>
          <li aria-current="page">Compare</li>
        </ol>
      </nav>
      <PageHeader
        title={`${crew.name}: two runs compared`}
        description="Inputs, models, each task's output (words removed and added), tokens, cost and time, side by side."
      />
      <RunCompare crew={crew.slug} a={left} b={right} />
    </>
  );
}
