import { Send } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";

/** No deliveries: none with the chosen status, or none at all yet. */
export function NoDeliveries({ status }: { status: string }) {
  return (
    <EmptyState icon={Send} title={status ? "No deliveries with this status" : "No deliveries yet"}>
      {status ? (
        "Choose “All deliveries” to see the others."
      ) : (
        <>
          Pass webhook URLs in a kickoff's <code className="font-mono text-xs">webhooks</code> to
          receive events; each one is logged here.
        </>
      )}
    </EmptyState>
  );
}
