"use client";

import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { OutputView } from "./output-view";

/** The run's final result, once: Markdown, or formatted JSON when it is structured output. */
export function RunResult({ result, format }: { result: string; format: "json" | "text" }) {
  return (
    <Card aria-labelledby="result-title">
      <CardHeader>
        <CardTitle id="result-title" className="m-0">
          Result
        </CardTitle>
        <CopyButton text={result} label="Copy" what="result" />
      </CardHeader>
      <CardContent>
        <OutputView text={result} format={format} label="JSON" />
      </CardContent>
    </Card>
  );
}
