import { Alert } from "@/components/ui/alert";
import type { ConnectionTest } from "@/lib/contract/integrations";
import { teamList, trackerName } from "./tracker-backend";

/** What the last connection test said: the tracker and its teams, or why it did not answer. */
export function TrackerTestResult({ result }: { result: ConnectionTest | undefined }) {
  return (
    <>
      {result?.ok && (
        <Alert tone="success">
          Connected ({trackerName(result)}): teams {teamList(result)}
        </Alert>
      )}
      {result && !result.ok && (
        <Alert tone="danger" title="The tracker did not answer">
          {result.error?.message}
        </Alert>
      )}
    </>
  );
}
