import { Download } from "lucide-react";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { artifactUrl } from "@/lib/contract/artifact-url";
import { formatBytes } from "@/lib/format/numbers";
import type { TraceArtifact } from "./trace-types";

/** The run's files (task outputs with output_file, files agents wrote), each a download. */
export function RunFiles({
  crew,
  id,
  files,
  taskName,
}: {
  crew: string;
  id: string;
  files: TraceArtifact[];
  taskName: (taskId: string) => string;
}) {
  return (
    <Card aria-labelledby="files-title">
      <CardHeader>
        <CardTitle id="files-title" className="m-0">
          Files
        </CardTitle>
      </CardHeader>
      <CardContent className="pt-2">
        <ul className="grid gap-2">
          {files.map((f) => (
            <li key={f.name} className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-0.5">
              {/* A download from the API: a real request, not an in-app page. */}
              <a
                href={artifactUrl(crew, id, f.name)}
                download
                className="inline-flex min-w-0 items-center gap-1.5 break-all font-medium font-mono text-link text-sm underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-ring"
              >
                <Download aria-hidden className="size-4 shrink-0" />
                {f.name}
              </a>
              <span className="text-muted-foreground text-xs">
                {formatBytes(f.bytes)} · from {taskName(f.taskId)}
              </span>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
