"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { crewApi } from "@/lib/api/client";
import { errorMessage } from "@/lib/errors";
import { forkBody, type Inherited } from "./fork-model";

/** The fork dialog's state: the output chosen and its text, and starting the fork. */
export function useForkDialog(
  crew: string,
  runId: string,
  fromTask: string,
  inherited: Inherited[],
) {
  const router = useRouter();
  const last = inherited.at(-1);
  const [open, setOpen] = useState(false);
  const [which, setWhich] = useState(last?.task_id ?? "");
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const chosen = inherited.find((t) => t.task_id === which);
  const text = chosen ? (texts[chosen.task_id] ?? chosen.output) : "";
  const edited = Boolean(chosen && text !== chosen.output);

  async function start() {
    setSending(true);
    setError(null);
    try {
      const { kickoff_id } = await crewApi(crew).fork(runId, forkBody(fromTask, chosen, text));
      router.push(`/crews/${encodeURIComponent(crew)}/runs/${kickoff_id}`);
    } catch (err) {
      setSending(false);
      setError(errorMessage(err));
    }
  }

  function onOpenChange(o: boolean) {
    setOpen(o);
    if (o) {
      setWhich(last?.task_id ?? "");
      setTexts({});
      setError(null);
    }
  }

  const setText = (value: string) => {
    if (chosen) setTexts({ ...texts, [chosen.task_id]: value });
  };
  return {
    open,
    setOpen,
    onOpenChange,
    which,
    setWhich,
    chosen,
    text,
    setText,
    edited,
    error,
    sending,
    start,
  };
}
