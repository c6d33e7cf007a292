"use client";

import { PencilLine } from "lucide-react";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { OutputView } from "./output-view";

/** The run's final result, once: Markdown, or formatted JSON when it is structured output. */
export function RunResult({
  result,
  format,
  editedBy,
}: {
  result: string;
  format: "json" | "text";
  /** The last task was approved with an edit: by whom. */
  editedBy?: string;
}) {
  return (
    <Card aria-labelledby="result-title">
      <CardHeader>
        <CardTitle id="result-title" className="m-0">
          Result
        </CardTitle>
        <CopyButton text={result} label="Copy" what="result" />
      </CardHeader>
      <CardContent className="grid gap-3">
        {editedBy && (
          <p className="m-0 flex items-center gap-1.5 text-muted-foreground text-sm">
            <PencilLine aria-hidden className="size-3.5" />
            Edited by {editedBy} before approving; the agent's own output is in the comparison
            above.
          </p>
        )}
        <OutputView text={result} format={format} label="JSON" />
      </CardContent>
    </Card>
  );
}
