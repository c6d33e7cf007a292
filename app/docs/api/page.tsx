import type { Metadata } from "next";
import Link from "next/link";
import { InlineCode } from "@/components/inline-code";
import { Brand } from "@/components/shell/brand";
import { PageHeader } from "@/components/shell/page-header";
import { openApiDocument } from "@/lib/api/openapi";

export const metadata: Metadata = { title: "API reference" };

type Operation = {
  summary: string;
  description?: string;
  parameters?: { name: string; in: string; description?: string }[];
  requestBody?: { content: Record<string, { schema: { $ref: string } }> };
  responses: Record<string, { description: string }>;
};

const METHOD_TONE: Record<string, string> = {
  get: "bg-tone-info text-tone-info-foreground",
  post: "bg-tone-success text-tone-success-foreground",
  delete: "bg-tone-danger text-tone-danger-foreground",
};
const card = "rounded-xl border bg-card p-4 text-card-foreground shadow-xs";
const pre = "mt-2 max-h-96 overflow-auto rounded-md bg-muted p-3 font-mono text-xs";

// A readable view of /api/openapi.json: the same document, so the two never disagree.
export default function ApiReference() {
  const doc = openApiDocument();
  const schemas = doc.components.schemas as Record<string, unknown>;
  return (
    <div className="min-h-dvh bg-background text-foreground">
      <header className="border-b bg-card">
        <div className="mx-auto flex h-14 max-w-5xl items-center justify-between gap-4 px-4 sm:px-6">
          <Brand />
          <Link href="/sign-in" className="font-medium text-link text-sm hover:underline">
            Sign in
          </Link>
        </div>
      </header>
      <main className="mx-auto grid max-w-5xl gap-4 px-4 py-8 sm:px-6">
        <PageHeader
          title="Crew Execution Service API"
          description={
            <>
              Machine-readable:{" "}
              <a href="/api/openapi.json" className="text-link hover:underline">
                /api/openapi.json
              </a>{" "}
              (OpenAPI {doc.openapi}).
            </>
          }
        >
          <p className="max-w-3xl text-sm [&_code]:font-mono [&_code]:text-[0.85em]">
            <InlineCode text={doc.info.description} />
          </p>
        </PageHeader>
        {Object.entries(doc.paths).map(([path, methods]) =>
          Object.entries(methods as Record<string, Operation>).map(([method, op]) => {
            const ref = op.requestBody
              ? Object.values(op.requestBody.content)[0]?.schema.$ref.split("/").at(-1)
              : undefined;
            return (
              <section key={`${method} ${path}`} className={card} id={`${method}-${path}`}>
                <h2 className="flex flex-wrap items-center gap-2 font-semibold text-base">
                  <span
                    className={`rounded px-1.5 py-0.5 font-mono text-xs ${METHOD_TONE[method] ?? "bg-tone-neutral text-tone-neutral-foreground"}`}
                  >
                    {method.toUpperCase()}
                  </span>
                  <code className="break-all font-mono text-sm">{`/api/crews/{crew}${path === "/" ? "/" : path}`}</code>
                </h2>
                <p className="mt-2 text-sm">{op.summary}</p>
                {op.description && (
                  <p className="mt-1 text-muted-foreground text-sm [&_code]:font-mono">
                    <InlineCode text={op.description} />
                  </p>
                )}
                {ref && (
                  <details className="mt-3 text-sm">
                    <summary className="cursor-pointer font-medium">Request body: {ref}</summary>
                    <pre className={pre}>{JSON.stringify(schemas[ref], null, 2)}</pre>
                  </details>
                )}
                <table
                  className="mt-3 w-full text-sm"
                  aria-label={`${method.toUpperCase()} ${path} responses`}
                >
                  <tbody>
                    {Object.entries(op.responses).map(([code, r]) => (
                      <tr key={code} className="border-t align-top">
                        <td className="w-16 py-1.5 pr-3 font-mono text-xs leading-5">{code}</td>
                        <td className="py-1.5 text-muted-foreground [&_code]:font-mono">
                          <InlineCode text={r.description} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </section>
            );
          }),
        )}
        <h2 className="mt-4 font-semibold text-lg">Webhooks</h2>
        {Object.entries(doc.webhooks).map(([name, hook]) => (
          <section key={name} className={card} id={`webhook-${name}`}>
            <h3 className="font-semibold text-sm">
              <code className="font-mono">{name}</code> —{" "}
              {hook.post.requestBody.content["application/json"].schema.$ref.split("/").at(-1)}
            </h3>
            <p className="mt-1 text-muted-foreground text-sm [&_code]:font-mono">
              <InlineCode text={hook.post.description} />
            </p>
          </section>
        ))}
        <h2 className="mt-4 font-semibold text-lg">Schemas</h2>
        {Object.entries(schemas).map(([name, s]) => (
          <details key={name} className={card}>
            <summary className="cursor-pointer font-medium font-mono text-sm">{name}</summary>
            <pre className={pre}>{JSON.stringify(s, null, 2)}</pre>
          </details>
        ))}
      </main>
    </div>
  );
}
