import "server-only";
import { notFound } from "next/navigation";
import type { Principal } from "@/lib/auth/principal";
import type { Db } from "@/lib/db/types";
import { AppError } from "@/lib/errors";
import { getExecutionOrThrow } from "@/lib/runs/get-execution";

/** A run the person may see on this crew, or the page's 404 (unknown, another crew's, not theirs). */
export function runOr404(args: { db: Db; crew: string; id: string; principal: Principal }) {
  return getExecutionOrThrow(args).catch((err) => {
    if (err instanceof AppError && err.status === 404) notFound();
    throw err;
  });
}
