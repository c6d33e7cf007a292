"use client";

import { Alert } from "@/components/ui/alert";
import { TestButton } from "./kit/fields";
import { Loading, Problem, SettingsSection } from "./kit/section";
import { TrackerBackendForm } from "./tracker-backend-form";
import { TrackerTestResult } from "./tracker-test-result";
import { useTrackerBackend } from "./use-tracker-backend";

/** Which tracker agents use — the embedded one or Linear — and a check that it answers. */
export function TrackerBackendSection() {
  const { query, choice, key, backend, fromEnv, save, test, choose, type } = useTrackerBackend();
  const { data, error } = query;
  return (
    <SettingsSection
      id="tracker-backend"
      title="Issue tracker"
      description="Where agents file, search and update issues."
    >
      <Loading query={query} className="h-24" />
      {fromEnv && (
        <p className="text-sm">
          Linear, set by <code className="font-mono">LINEAR_API_KEY</code> in the environment.
        </p>
      )}
      {data && !fromEnv && (
        <TrackerBackendForm
          view={data}
          backend={backend}
          linearKey={key}
          onChoose={choose}
          onKey={type}
          saving={save.isPending}
          testing={test.isPending}
          onSave={() => save.mutate()}
          onTest={() => test.mutate()}
        />
      )}
      {fromEnv && (
        <div>
          <TestButton testing={test.isPending} onClick={() => test.mutate()} />
        </div>
      )}
      <TrackerTestResult result={test.data} />
      {save.isSuccess && !choice && !key && <Alert tone="success">Saved.</Alert>}
      <Problem errors={[save.error, error, test.error]} />
    </SettingsSection>
  );
}
