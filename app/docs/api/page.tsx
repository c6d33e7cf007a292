import type { Metadata } from "next";
import Link from "next/link";
import { OperationCard, SchemaName } from "@/components/api-reference/operation-card";
import { InlineCode } from "@/components/inline-code";
import { Brand } from "@/components/shell/brand";
import { PageHeader } from "@/components/shell/page-header";
import { Card, CardContent } from "@/components/ui/card";
import { openApiDocument } from "@/lib/api/openapi";
import { type OpenApiLike, referenceView } from "@/lib/api/openapi/reference-view";

export const metadata: Metadata = { title: "API reference" };

const code = "[&_code]:font-mono [&_code]:text-[0.85em]";
const pre = "mt-2 max-h-96 overflow-auto rounded-md bg-muted p-3 font-mono text-xs";

// A readable view of /api/openapi.json, rendered from the same document so the two never disagree.
// A server component: the page ships no JavaScript of its own.
export default function ApiReference() {
  const doc = openApiDocument();
  // The document's literal type is narrower than what the view reads: the view reads it as JSON.
  const tags = referenceView(doc as unknown as OpenApiLike);
  const schemas = doc.components.schemas as Record<string, unknown>;
  const schemes = doc.components.securitySchemes as Record<string, { description: string }>;
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
          title={doc.info.title}
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
          {doc.info.description.split("\n\n").map((paragraph) => (
            <p key={paragraph} className={`max-w-3xl text-sm ${code}`}>
              <InlineCode text={paragraph} />
            </p>
          ))}
        </PageHeader>

        <nav aria-label="Sections" className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {tags.map((t) => (
            <a key={t.name} href={`#${t.anchor}`} className="text-link hover:underline">
              {t.name} ({t.operations.length})
            </a>
          ))}
          <a href="#credentials" className="text-link hover:underline">
            Credentials
          </a>
          <a href="#webhooks" className="text-link hover:underline">
            Webhooks
          </a>
          <a href="#schemas" className="text-link hover:underline">
            Schemas
          </a>
        </nav>

        {tags.map((t) => (
          <section key={t.name} aria-labelledby={t.anchor} className="grid gap-3">
            <div className="mt-4 grid gap-1">
              <h2 id={t.anchor} className="scroll-mt-4 font-semibold text-lg">
                {t.name}
              </h2>
              {t.description && <p className="text-muted-foreground text-sm">{t.description}</p>}
            </div>
            {t.operations.map((op) => (
              <OperationCard key={`${op.method} ${op.path}`} op={op} />
            ))}
          </section>
        ))}

        <h2 id="credentials" className="mt-4 scroll-mt-4 font-semibold text-lg">
          Credentials
        </h2>
        <Card>
          <CardContent>
            <dl className="grid gap-3 text-sm">
              {Object.entries(schemes).map(([name, scheme]) => (
                <div key={name} className="grid gap-0.5">
                  <dt className="font-medium font-mono text-xs">{name}</dt>
                  <dd className={`text-muted-foreground ${code}`}>
                    <InlineCode text={scheme.description} />
                  </dd>
                </div>
              ))}
            </dl>
          </CardContent>
        </Card>

        <h2 id="webhooks" className="mt-4 scroll-mt-4 font-semibold text-lg">
          Webhooks
        </h2>
        {Object.entries(doc.webhooks).map(([name, hook]) => (
          <Card key={name} id={`webhook-${name}`}>
            <CardContent>
              <h3 className="font-semibold text-sm">
                <code className="font-mono">{name}</code> —{" "}
                <SchemaName
                  use={{
                    mediaType: "application/json",
                    name: hook.post.requestBody.content["application/json"].schema.$ref
                      .split("/")
                      .at(-1),
                  }}
                />
              </h3>
              <p className={`mt-1 text-muted-foreground text-sm ${code}`}>
                <InlineCode text={hook.post.description} />
              </p>
            </CardContent>
          </Card>
        ))}

        <h2 id="schemas" className="mt-4 scroll-mt-4 font-semibold text-lg">
          Schemas
        </h2>
        {Object.entries(schemas).map(([name, s]) => (
          <details
            key={name}
            id={`schema-${name}`}
            className="scroll-mt-4 rounded-xl border bg-card p-4 text-card-foreground shadow-xs"
          >
            <summary className="cursor-pointer font-medium font-mono text-sm">{name}</summary>
            <pre className={pre}>{JSON.stringify(s, null, 2)}</pre>
          </details>
        ))}
      </main>
    </div>
  );
}
