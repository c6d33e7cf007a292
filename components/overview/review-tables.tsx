import type { ReactNode } from "react";
import { useCrewName } from "@/components/crew-names";
import { Card, CardDescription } from "@/components/ui/card";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "@/components/ui/table";
import type { ReviewStats } from "@/lib/api/client";
import { formatDuration } from "@/lib/format/duration";
import { formatCount, formatPercent } from "@/lib/format/numbers";

const num = "text-right tabular-nums";

/** A compact table's frame: title, one line of context, the table. */
function TableCard({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Card className="min-w-0">
      <div className="grid gap-0.5 px-4 pt-4 pb-2">
        {/* h3: these sit under the section's "Reviews" heading */}
        <h3 className="m-0 font-semibold text-sm leading-6">{title}</h3>
        <CardDescription className="text-xs">{description}</CardDescription>
      </div>
      {children}
    </Card>
  );
}

/** The window's reviews by crew and by reviewer, side by side on a wide screen. */
export function ReviewTables({ stats }: { stats: ReviewStats }) {
  const crewName = useCrewName();
  return (
    // Side by side only where the crew table's six columns fit without scrolling.
    <div className="grid gap-4 2xl:grid-cols-2">
      <TableCard
        title="By crew"
        description="Reviews requested, first-review p50, approvals, rounds"
      >
        <Table scrollLabel="Reviews by crew">
          <TableHeader>
            <TableRow>
              <TableHead>Crew</TableHead>
              <TableHead className="text-right">Reviews</TableHead>
              <TableHead className="text-right">First review</TableHead>
              <TableHead className="text-right">Approval</TableHead>
              <TableHead className="text-right">Rounds</TableHead>
              <TableHead className="text-right">Timeouts</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {stats.by_crew.map((c) => (
              <TableRow key={c.crew}>
                <TableCell className="max-w-48 truncate font-medium">{crewName(c.crew)}</TableCell>
                <TableCell className={num}>{formatCount(c.requests)}</TableCell>
                <TableCell className={num}>{formatDuration(c.first_review_p50_seconds)}</TableCell>
                <TableCell className={num}>{formatPercent(c.approval_rate)}</TableCell>
                <TableCell className={num}>
                  {c.send_back_rounds_avg === null ? "—" : c.send_back_rounds_avg.toFixed(1)}
                </TableCell>
                <TableCell className={num}>{formatCount(c.timeouts)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableCard>
      <TableCard title="By reviewer" description="Decisions and quorum votes, time from request">
        {stats.by_reviewer.length === 0 ? (
          <p className="px-4 pb-4 text-muted-foreground text-sm">No one has decided yet.</p>
        ) : (
          <Table scrollLabel="Reviews by reviewer">
            <TableHeader>
              <TableRow>
                <TableHead>Reviewer</TableHead>
                <TableHead className="text-right">Decisions</TableHead>
                <TableHead className="text-right">Approval</TableHead>
                <TableHead className="text-right">Time to decide</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {stats.by_reviewer.map((r) => (
                <TableRow key={r.reviewer}>
                  <TableCell className="max-w-56 truncate font-medium" title={r.reviewer}>
                    {r.reviewer}
                  </TableCell>
                  <TableCell className={num}>{formatCount(r.decisions)}</TableCell>
                  <TableCell className={num}>{formatPercent(r.approval_rate)}</TableCell>
                  <TableCell className={num}>{formatDuration(r.decide_p50_seconds)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </TableCard>
    </div>
  );
}
