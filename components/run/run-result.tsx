"use client";

import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { LazyMarkdown } from "./lazy-markdown";

/** The run's final result, once, as Markdown. */
export function RunResult({ result }: { result: string }) {
  return (
    <Card aria-labelledby="result-title">
      <CardHeader>
        <CardTitle id="result-title" className="m-0">
          Result
        </CardTitle>
        <CopyButton text={result} label="Copy" what="result" />
      </CardHeader>
      <CardContent>
        <LazyMarkdown text={result} />
      </CardContent>
    </Card>
  );
}
