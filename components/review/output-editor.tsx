"use client";

import dynamic from "next/dynamic";
import { useId, useState } from "react";
import { jsonProblem } from "@/components/json-problem";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/input";

const Markdown = dynamic(() => import("@/components/markdown").then((m) => m.Markdown), {
  ssr: false,
  loading: () => null,
});

/**
 * The reviewer's edit of an output: Markdown with a preview, or JSON checked as it is typed (the
 * server checks it against the task's schema when it is approved).
 */
export function OutputEditor({
  value,
  onChange,
  json,
  disabled,
}: {
  value: string;
  onChange: (text: string) => void;
  json: boolean;
  disabled: boolean;
}) {
  const id = useId();
  const [preview, setPreview] = useState(false);
  const problem = json ? jsonProblem(value) : null;
  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={id} className="font-medium text-sm">
          {json ? "Edited output (JSON)" : "Edited output (Markdown)"}
        </label>
        {!json && (
          <fieldset className="m-0 ml-auto flex gap-1 border-0 p-0">
            <legend className="sr-only">Show</legend>
            <Button size="sm" aria-pressed={!preview} onClick={() => setPreview(false)}>
              Write
            </Button>
            <Button size="sm" aria-pressed={preview} onClick={() => setPreview(true)}>
              Preview
            </Button>
          </fieldset>
        )}
      </div>
      {preview ? (
        <div className="min-w-0 rounded-lg border bg-background p-4 text-sm leading-6 [&_.markdown>:first-child]:mt-0 [&_.markdown>:last-child]:mb-0">
          <Markdown text={value} />
        </div>
      ) : (
        <Textarea
          id={id}
          rows={12}
          value={value}
          disabled={disabled}
          spellCheck={!json}
          aria-invalid={problem !== null}
          aria-describedby={problem ? `${id}-problem` : undefined}
          className="font-mono text-xs leading-5"
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      {problem && (
        <p
          id={`${id}-problem`}
          className="rounded-md bg-tone-danger px-2 py-1 text-sm text-tone-danger-foreground"
        >
          {problem}
        </p>
      )}
    </div>
  );
}
