import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { authSecret } from "@/lib/auth/auth-secret";
import { requireUser } from "@/lib/auth/require-user";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { verifyReviewLink } from "@/lib/notify/link-token";
import { getExecutionOrThrow } from "@/lib/runs/get-execution";

export const metadata: Metadata = { title: "Review link" };
export const dynamic = "force-dynamic";

const PROBLEMS = {
  expired: {
    title: "This review link has expired",
    detail:
      "Links in notifications work for a limited time. The review, if still open, is in your inbox.",
  },
  invalid: {
    title: "This review link is not valid",
    detail:
      "It may have been cut short or changed on the way. Open the review from your inbox instead.",
  },
  missing: {
    title: "This run cannot be opened",
    detail: "It was deleted, or your access does not include it.",
  },
} as const;

/**
 * Where a notification's link lands: a signed, expiring link to one review. Signed out, the proxy
 * sends the person to sign in and back here; then, if the signature, expiry and purpose hold and
 * they may see the run, on to the run page with that task's review open.
 */
export default async function ReviewLinkPage({ params }: { params: Promise<{ token: string }> }) {
  const { principal } = await requireUser();
  const { token } = await params;
  const check = verifyReviewLink(authSecret(), token);
  let problem: keyof typeof PROBLEMS | null = check.ok
    ? null
    : check.reason === "expired"
      ? "expired"
      : "invalid";
  if (check.ok) {
    const { link } = check;
    const visible = await getExecutionOrThrow({
      db: await getDb(),
      crew: link.crew,
      id: link.execution_id,
      principal,
    }).then(
      () => true,
      (err) => {
        if (err instanceof AppError && err.status === 404) return false;
        throw err;
      },
    );
    if (visible)
      redirect(
        `/crews/${link.crew}/runs/${link.execution_id}?task=${encodeURIComponent(link.task_id)}`,
      );
    problem = "missing";
  }
  const { title, detail } = PROBLEMS[problem ?? "invalid"];
  return (
    <EmptyState
      title={title}
      className="mx-auto mt-10 max-w-lg"
      action={
        <Button asChild variant="primary">
          <Link href="/inbox">Open the inbox</Link>
        </Button>
      }
    >
      {detail}
    </EmptyState>
  );
}
