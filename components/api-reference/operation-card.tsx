import type { ReactNode } from "react";
import { InlineCode } from "@/components/inline-code";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Card, CardContent } from "@/components/ui/card";
import type { OperationView, SchemaUse } from "@/lib/api/openapi/reference-view";
import { Description } from "./description";

const METHOD_TONE: Record<string, BadgeTone> = {
  GET: "info",
  POST: "success",
  PUT: "warning",
  PATCH: "warning",
  DELETE: "danger",
};
const code = "[&_code]:font-mono [&_code]:text-[0.85em]";

/** A schema's name, linked to its definition below; or the media type's inline type. */
export function SchemaName({ use }: { use: SchemaUse }) {
  const media = use.mediaType.includes("json") ? "" : ` (${use.mediaType})`;
  if (!use.name) return <span className="font-mono text-xs">{`${use.inline ?? ""}${media}`}</span>;
  return (
    <a href={`#schema-${use.name}`} className="font-mono text-link text-xs hover:underline">
      {use.name}
      {media}
    </a>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="grid gap-1.5">
      <h4 className="font-medium text-muted-foreground text-xs uppercase tracking-wide">{title}</h4>
      {children}
    </div>
  );
}

// One operation: what to send, what comes back, and who may call it.
export function OperationCard({ op }: { op: OperationView }) {
  return (
    <Card id={op.anchor} className="scroll-mt-4">
      <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-4">
        <div className="grid min-w-0 gap-1.5">
          <h3 className="flex flex-wrap items-center gap-2">
            <Badge tone={METHOD_TONE[op.method] ?? "neutral"} className="rounded font-mono">
              {op.method}
            </Badge>
            <code className="break-all font-mono text-sm">{op.path}</code>
          </h3>
          <p className="text-sm">{op.summary}</p>
          {op.description && (
            <Description
              text={op.description}
              className={`text-muted-foreground text-sm ${code}`}
            />
          )}
        </div>
        <Section title="Access">
          <ul className={`grid gap-0.5 text-sm ${code}`}>
            {op.access.map((line) => (
              <li key={line}>
                <InlineCode text={line} />
              </li>
            ))}
          </ul>
        </Section>
        {op.parameters.length > 0 && <Parameters parameters={op.parameters} />}
        {op.body && (
          <Section title="Request body">
            <p className="text-sm">
              <SchemaName use={op.body} />
              <span className="text-muted-foreground">
                {op.body.required ? " · required" : " · optional"}
                {op.body.description ? ` · ${op.body.description}` : ""}
              </span>
            </p>
          </Section>
        )}
        <Section title="Responses">
          <ul className="grid gap-1.5 text-sm">
            {op.responses.map((r) => (
              <li key={r.code} className="grid grid-cols-[3rem_1fr] gap-2">
                <span className="font-mono text-xs leading-5">{r.code}</span>
                <span className={`min-w-0 text-muted-foreground ${code}`}>
                  {r.schema && (
                    <>
                      <SchemaName use={r.schema} />{" "}
                    </>
                  )}
                  <InlineCode text={r.description} />
                </span>
              </li>
            ))}
          </ul>
        </Section>
      </CardContent>
    </Card>
  );
}

function Parameters({ parameters }: { parameters: OperationView["parameters"] }) {
  return (
    <Section title="Parameters">
      <dl className="grid gap-2 text-sm">
        {parameters.map((p) => (
          <div key={`${p.in}-${p.name}`} className="grid gap-0.5">
            <dt className="flex flex-wrap items-baseline gap-x-2">
              <code className="font-mono font-medium text-xs">{p.name}</code>
              <span className="text-muted-foreground text-xs">
                {p.in} · {p.type}
                {p.required ? " · required" : ""}
              </span>
            </dt>
            {p.description && (
              <dd className={`text-muted-foreground ${code}`}>
                <InlineCode text={p.description} />
              </dd>
            )}
          </div>
        ))}
      </dl>
    </Section>
  );
}
