import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { trackerSettingsApi } from "@/lib/api/client";
import { useSettingsQuery } from "./kit/use-settings-query";
import { type Backend, shownBackend, testChoice } from "./tracker-backend";

/** The tracker settings, what is typed over them, Save and a test of what is on screen. */
export function useTrackerBackend() {
  const { query, refresh } = useSettingsQuery(["tracker-settings"], trackerSettingsApi.get);
  const [choice, setChoice] = useState<Backend | null>(null);
  const [key, setKey] = useState("");
  const backend = shownBackend(choice, query.data);
  const save = useMutation({
    mutationFn: () => trackerSettingsApi.save(backend, key || undefined),
    onSuccess: () => {
      setKey("");
      setChoice(null);
      refresh();
    },
  });
  const fromEnv = query.data?.source === "environment";
  const test = useMutation({
    mutationFn: () => trackerSettingsApi.test(testChoice(fromEnv, backend, key)),
  });
  // A change on screen makes the last test's answer stale.
  const choose = (value: Backend) => {
    setChoice(value);
    test.reset();
  };
  const type = (value: string) => {
    setKey(value);
    test.reset();
  };
  return { query, choice, key, backend, fromEnv, save, test, choose, type };
}
