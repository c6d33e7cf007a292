"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { trackerSettingsApi } from "@/lib/api/client";
import { InputField, SettingsForm, SubmitButton, TestButton } from "./kit/fields";
import { Loading, Problem, SettingsSection } from "./kit/section";
import { useSettingsQuery } from "./kit/use-settings-query";

const CHOICES = [
  { value: "embedded", label: "Embedded tracker", help: "Issues live in this Crewdeck." },
  { value: "linear", label: "Linear", help: "Agents file issues in your Linear workspace." },
] as const;

/** Which tracker agents use — the embedded one or Linear — and a check that it answers. */
export function TrackerBackendSection() {
  const { query, refresh } = useSettingsQuery(["tracker-settings"], trackerSettingsApi.get);
  const { data, error } = query;
  const [choice, setChoice] = useState<"embedded" | "linear" | null>(null);
  const [key, setKey] = useState("");
  const backend = choice ?? data?.backend ?? "embedded";
  const save = useMutation({
    mutationFn: () => trackerSettingsApi.save(backend, key || undefined),
    onSuccess: () => {
      setKey("");
      setChoice(null);
      refresh();
    },
  });
  const fromEnv = data?.source === "environment";
  // Tests what is on screen (a typed key, or the saved one when blank), saved or not.
  const test = useMutation({
    mutationFn: () =>
      fromEnv
        ? trackerSettingsApi.test()
        : trackerSettingsApi.test({ backend, linearKey: key || undefined }),
  });
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
        <SettingsForm
          onSubmit={() => save.mutate()}
          className="grid gap-4"
          aria-label="Issue tracker"
        >
          <fieldset className="grid gap-2">
            <legend className="mb-1 font-medium text-sm">Agents file issues in</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              {CHOICES.map((c) => (
                <label
                  key={c.value}
                  className="flex cursor-pointer items-start gap-3 rounded-lg border p-3 has-[:checked]:border-primary has-[:checked]:bg-muted"
                >
                  <input
                    type="radio"
                    name="backend"
                    value={c.value}
                    checked={backend === c.value}
                    onChange={() => {
                      setChoice(c.value);
                      test.reset();
                    }}
                    className="mt-0.5 size-4 accent-primary"
                  />
                  <span className="grid gap-0.5">
                    <span className="font-medium text-sm">{c.label}</span>
                    <span className="text-muted-foreground text-xs">{c.help}</span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          {backend === "linear" && (
            <InputField
              id="linear-key"
              label="Linear API key"
              help="Stored encrypted; never shown again. Leave blank to keep the saved key."
              fieldClassName="max-w-md"
              type="password"
              autoComplete="off"
              value={key}
              onChange={(e) => {
                setKey(e.target.value);
                test.reset();
              }}
              placeholder={
                data.linear_key_saved
                  ? `Saved (${data.linear_key_hint}); type to replace`
                  : "lin_api_…"
              }
            />
          )}
          <div className="flex flex-wrap gap-2">
            <SubmitButton busy={save.isPending} busyLabel="Saving…">
              Save
            </SubmitButton>
            <TestButton testing={test.isPending} onClick={() => test.mutate()} />
          </div>
        </SettingsForm>
      )}
      {fromEnv && (
        <div>
          <TestButton testing={test.isPending} onClick={() => test.mutate()} />
        </div>
      )}
      {test.data?.ok && (
        <Alert tone="success">
          Connected ({test.data.backend === "linear" ? "Linear" : "embedded tracker"}): teams{" "}
          {test.data.teams?.join(", ") || "(none)"}
        </Alert>
      )}
      {test.data && !test.data.ok && (
        <Alert tone="danger" title="The tracker did not answer">
          {test.data.error?.message}
        </Alert>
      )}
      {save.isSuccess && !choice && !key && <Alert tone="success">Saved.</Alert>}
      <Problem errors={[save.error, error, test.error]} />
    </SettingsSection>
  );
}
