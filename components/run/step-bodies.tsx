import type { ExecutionEvent } from "@/lib/contract/status";
import { JsonBlock } from "./json-block";

// The parts of a step's detail that say what a check or a review decided.

export const CHECK_EVENTS = new Set(["guardrail_failed", "guardrail_passed", "output_invalid"]);

// Which retry a failed check caused, of how many the task allows.
export function retryText(d: Record<string, unknown>) {
  if (typeof d.retry !== "number") return null;
  if (d.final) return "none left";
  return typeof d.max_retries === "number" ? `${d.retry} of ${d.max_retries}` : String(d.retry);
}

// A guardrail's verdict or a schema's errors, and the answer that was checked.
export function CheckBody({ data }: { data: Record<string, unknown> }) {
  const errors = Array.isArray(data.errors) ? data.errors.map(String) : [];
  const sentBack = data.output !== undefined && !data.final;
  return (
    <>
      {typeof data.guardrail === "string" && (
        <p className="text-sm">
          <span className="text-muted-foreground">Guardrail: </span>
          {data.guardrail}
        </p>
      )}
      {typeof data.reason === "string" && data.reason && (
        <p className="rounded-md bg-muted p-2 text-sm">{data.reason}</p>
      )}
      {errors.length > 0 && (
        <ul className="list-disc space-y-1 pl-5 font-mono text-xs">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
      {data.final === true && <p className="text-sm">No retries left: the task failed.</p>}
      {sentBack && (
        <p className="text-muted-foreground text-sm">
          The agent was asked again with this as feedback.
        </p>
      )}
      {typeof data.output === "string" && <JsonBlock label="Checked answer" value={data.output} />}
    </>
  );
}

/** Each decision on a review, in order: a quorum's votes, then the one that closed it. */
export function ReviewVotes({ events }: { events: ExecutionEvent[] }) {
  if (!events.length)
    return <p className="text-muted-foreground text-sm">Waiting for a reviewer.</p>;
  return (
    <ul className="m-0 grid list-none gap-2 p-0 text-sm">
      {events.map((e) => {
        const d = e.data;
        const tally = d.approvals as { count?: number; required?: number } | undefined;
        const vote =
          d.effect === "approval_recorded"
            ? `Approved (${tally?.count ?? 1} of ${tally?.required ?? 2}) by`
            : d.decision === "approve"
              ? "Approved by"
              : "Changes requested by";
        const answers =
          d.response && typeof d.response === "object"
            ? Object.entries(d.response as Record<string, unknown>)
            : [];
        return (
          <li key={e.seq}>
            {vote} {String(d.reviewer)}
            {answers.length > 0 && (
              <span className="mt-1 block text-muted-foreground">
                {answers
                  .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
                  .join(" · ")}
              </span>
            )}
            {d.feedback ? (
              <span className="mt-1 block rounded-md bg-muted p-2 italic">
                “{String(d.feedback)}”
              </span>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
