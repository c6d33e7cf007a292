"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { isTyping } from "@/components/review/kbd";
import { ledgerApi, reviewsApi } from "@/lib/api/client";
import { handOffText } from "./hand-off";
import { inboxHref, nextAfter, selectedReview, withDecision } from "./inbox-model";
import { isScope, type Scope } from "./scopes";
import { type CrewInfo, type Decision, type InboxReview, orderedInputs, reviewKey } from "./types";
import { useReviewStream } from "./use-review-stream";

/**
 * The inbox's data and state: the reviews of the scope in the URL (re-read as the server says
 * they changed; every 5 s while its stream is down, 30 s as a backstop), longest
 * waiting first; the one selected by `?run=` (and `&task=`); links that keep the scope; the
 * notices of decisions just made; a clock for "waiting for"; and j / k to move through the queue.
 */
export function useInbox(canReview: boolean, crews: CrewInfo) {
  const router = useRouter();
  const params = useSearchParams();
  const [decisions, setDecisions] = useState<Decision[]>([]);
  const now = useClock();
  const defaultScope: Scope = canReview ? "mine" : "all";
  const asked = params.get("scope");
  const scope: Scope = isScope(asked) ? asked : defaultScope;
  const { data, error, isPending, reviews } = useInboxQuery(scope);

  const askedRun = params.get("run");
  const askedTask = params.get("task");
  const selected = selectedReview(reviews, askedRun, askedTask);
  const gone = askedRun !== null && data !== undefined && !selected;

  const { goneWhy } = useLeftReview(reviews, crews, gone ? askedRun : null, askedTask, (d) => {
    setDecisions((ds) => withDecision(ds, d));
    const next = order.current.reviews[0];
    if (next) order.current.select(next);
  });

  // The URL of a review: the scope when not the default, the run, the task when the run has more.
  const hrefOf = useCallback(
    (r: InboxReview | null, inScope: Scope = scope) => inboxHref(reviews, r, inScope, defaultScope),
    [scope, defaultScope, reviews],
  );
  const select = useCallback(
    (r: InboxReview | null) => router.replace(hrefOf(r), { scroll: false }),
    [router, hrefOf],
  );

  const order = useRef({ reviews, selected, select });
  order.current = { reviews, selected, select };
  useQueueKeys(order);

  /** A decision went through: say so, and move on unless the review stays open (a quorum vote). */
  const decided = (review: InboxReview, message: string, moveOn: boolean) => {
    const run = review.execution_id;
    setDecisions((ds) =>
      withDecision(ds, {
        runId: run,
        crew: review.crew,
        taskId: review.task_id,
        attempt: review.attempt,
        message,
      }),
    );
    if (!moveOn) return;
    const next = nextAfter(reviews, review);
    const current = order.current.selected;
    if (current && reviewKey(current) === reviewKey(review)) select(next ?? null);
  };
  const expire = useCallback(
    (runId: string) => setDecisions((ds) => ds.filter((d) => d.runId !== runId)),
    [],
  );

  return {
    data,
    error,
    isPending,
    scope,
    reviews,
    selected,
    askedRun,
    gone,
    goneWhy,
    explicit: askedRun !== null && !gone,
    now,
    hrefOf,
    select,
    decisions,
    decided,
    expire,
  };
}

/**
 * A review that left while open here (reassigned, released, decided elsewhere; `askedRun` is
 * set only then): its ledger says what became of it.
 */
function useLeftReview(
  reviews: InboxReview[],
  crews: CrewInfo,
  askedRun: string | null,
  askedTask: string | null,
  /** Says what became of it (and opens the next review). */
  onLeft: (notice: Decision) => void,
) {
  const seen = useRef(new Map<string, InboxReview>());
  // Read when a review leaves, not a reason to say it again when the page re-renders.
  const crewsNow = useRef(crews);
  crewsNow.current = crews;
  for (const r of reviews) seen.current.set(r.execution_id, r);
  const left = askedRun ? seen.current.get(askedRun) : undefined;
  const { data: ledger } = useQuery({
    queryKey: ["runs", "inbox", "left", left?.crew, askedRun],
    queryFn: () => ledgerApi.entries(left?.crew ?? "", askedRun ?? ""),
    enabled: !!left && !!askedRun,
  });
  const goneWhy = ledger ? handOffText(ledger, askedTask ?? left?.task_id ?? null) : null;
  const onLeftNow = useRef(onLeft);
  onLeftNow.current = onLeft;
  useEffect(() => {
    if (!left || !goneWhy) return;
    onLeftNow.current({
      runId: left.execution_id,
      crew: left.crew,
      taskId: left.task_id,
      attempt: left.attempt,
      message: `${left.task_name ?? left.task_id}${aboutOf(left, crewsNow.current)}: ${goneWhy}.`,
      elsewhere: true,
    });
  }, [left, goneWhy]);
  return { goneWhy };
}

/**
 * The reviews of a scope, longest waiting first: re-read as the server says they changed; every
 * 5 s while its stream is down, 30 s as a backstop.
 */
function useInboxQuery(scope: Scope) {
  const live = useReviewStream();
  const { data, error, isPending } = useQuery({
    queryKey: ["runs", "inbox", scope],
    queryFn: () => reviewsApi.list(scope),
    refetchInterval: live ? 30_000 : 5_000,
  });
  const reviews = useMemo(
    () => [...(data?.reviews ?? [])].sort((a, b) => a.requested_at.localeCompare(b.requested_at)),
    [data],
  );
  return { data, error, isPending, reviews };
}

/** The time now, every 30 s: for "waiting for". */
function useClock() {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(t);
  }, []);
  return now;
}

/** Which run a review is, in a word: its first input ("eelgrass"), so two alike are told apart. */
function aboutOf(review: InboxReview, crews: CrewInfo): string {
  const first = orderedInputs(review, crews)
    .map(([, v]) => v)
    .find((v) => typeof v === "string" && v.trim());
  if (typeof first !== "string") return "";
  const text = first.trim();
  return ` (${text.length > 40 ? `${text.slice(0, 39)}…` : text})`;
}

type Order = {
  current: {
    reviews: InboxReview[];
    selected: InboxReview | null;
    select: (r: InboxReview | null) => void;
  };
};

// j / k move through the queue (not while typing in a field).
function useQueueKeys(order: Order) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e) || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      if (e.key !== "j" && e.key !== "k") return;
      const { reviews, selected, select } = order.current;
      if (reviews.length === 0) return;
      e.preventDefault();
      const at = selected ? reviews.indexOf(selected) : -1;
      const next = e.key === "j" ? Math.min(at + 1, reviews.length - 1) : Math.max(at - 1, 0);
      const review = reviews[next];
      if (review) {
        select(review);
        document
          .querySelector(`[data-run="${review.execution_id}"][data-task="${review.task_id}"]`)
          ?.scrollIntoView({ block: "nearest" });
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [order]);
}
