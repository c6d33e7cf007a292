"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { trackerSettingsApi } from "@/lib/api/client";

const CHOICES = [
  { value: "embedded", label: "Embedded tracker", help: "Issues live in this Crewdeck." },
  { value: "linear", label: "Linear", help: "Agents file issues in your Linear workspace." },
] as const;

/** Which tracker agents use — the embedded one or Linear — and a check that it answers. */
export function TrackerBackendSection() {
  const qc = useQueryClient();
  const { data, error } = useQuery({
    queryKey: ["tracker-settings"],
    queryFn: trackerSettingsApi.get,
  });
  const [choice, setChoice] = useState<"embedded" | "linear" | null>(null);
  const [key, setKey] = useState("");
  const backend = choice ?? data?.backend ?? "embedded";
  const save = useMutation({
    mutationFn: () => trackerSettingsApi.save(backend, key || undefined),
    onSuccess: () => {
      setKey("");
      setChoice(null);
      qc.invalidateQueries({ queryKey: ["tracker-settings"] });
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
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const problem = save.error ?? error ?? test.error;
  return (
    <Card aria-labelledby="tracker-backend-title">
      <CardHeader>
        <div className="grid gap-1">
          <CardTitle id="tracker-backend-title">Issue tracker</CardTitle>
          <CardDescription>Where agents file, search and update issues.</CardDescription>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4 [&>*]:min-w-0">
        {!data && !error && <Skeleton className="h-24" />}
        {fromEnv && (
          <p className="text-sm">
            Linear, set by <code className="font-mono">LINEAR_API_KEY</code> in the environment.
          </p>
        )}
        {data && !fromEnv && (
          <form method="post" onSubmit={submit} className="grid gap-4" aria-label="Issue tracker">
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
              <Field
                id="linear-key"
                label="Linear API key"
                help="Stored encrypted; never shown again. Leave blank to keep the saved key."
                className="max-w-md"
              >
                <Input
                  id="linear-key"
                  type="password"
                  autoComplete="off"
                  aria-describedby="linear-key-help"
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
              </Field>
            )}
            <div className="flex flex-wrap gap-2">
              <Button type="submit" variant="primary" disabled={save.isPending}>
                {save.isPending ? "Saving…" : "Save"}
              </Button>
              <Button onClick={() => test.mutate()} disabled={test.isPending}>
                {test.isPending ? "Testing…" : "Test connection"}
              </Button>
            </div>
          </form>
        )}
        {fromEnv && (
          <div>
            <Button onClick={() => test.mutate()} disabled={test.isPending}>
              {test.isPending ? "Testing…" : "Test connection"}
            </Button>
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
        {problem && <Alert tone="danger">{problem.message}</Alert>}
      </CardContent>
    </Card>
  );
}
