import type { Metadata } from "next";
import Link from "next/link";
import {
  CODE_TEXT,
  CredentialsSection,
  SchemasSection,
  SectionsNav,
  TagSection,
  WebhooksSection,
} from "@/components/api-reference/reference-sections";
import { InlineCode } from "@/components/inline-code";
import { Brand } from "@/components/shell/brand";
import { PageHeader } from "@/components/shell/page-header";
import { openApiDocument } from "@/lib/api/openapi";
import { type OpenApiLike, referenceView } from "@/lib/api/openapi/reference-view";

export const metadata: Metadata = { title: "API reference" };

// A readable view of /api/openapi.json, rendered from the same document so the two never disagree.
// A server component: the page ships no JavaScript of its own.
export default function ApiReference() {
  const doc = openApiDocument();
  // The document's literal type is narrower than what the view reads: the view reads it as JSON.
  const tags = referenceView(doc as unknown as OpenApiLike);
  const hooks = Object.entries(doc.webhooks).map(([name, hook]) => ({
    name,
    schema: hook.post.requestBody.content["application/json"].schema.$ref.split("/").at(-1),
    description: hook.post.description,
  }));
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
            <p key={paragraph} className={`max-w-3xl text-sm ${CODE_TEXT}`}>
              <InlineCode text={paragraph} />
            </p>
          ))}
        </PageHeader>
        <SectionsNav tags={tags} />
        {tags.map((t) => (
          <TagSection key={t.name} tag={t} />
        ))}
        <CredentialsSection schemes={Object.entries(doc.components.securitySchemes)} />
        <WebhooksSection hooks={hooks} />
        <SchemasSection schemas={Object.entries(doc.components.schemas)} />
      </main>
    </div>
  );
}
