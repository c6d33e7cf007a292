import type { ReactNode } from "react";
import { InlineCode } from "@/components/inline-code";
import { Card, CardContent } from "@/components/ui/card";
import type { referenceView } from "@/lib/api/openapi/reference-view";
import { OperationCard, SchemaName } from "./operation-card";

// The sections of the API reference page (app/docs/api/page.tsx), each drawn from the document.

export const CODE_TEXT = "[&_code]:font-mono [&_code]:text-[0.85em]";
const pre = "mt-2 max-h-96 overflow-auto rounded-md bg-muted p-3 font-mono text-xs";

type Tag = ReturnType<typeof referenceView>[number];

const link = "text-link hover:underline";

export function SectionsNav({ tags }: { tags: Tag[] }) {
  return (
    <nav aria-label="Sections" className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
      {tags.map((t) => (
        <a key={t.name} href={`#${t.anchor}`} className={link}>
          {t.name} ({t.operations.length})
        </a>
      ))}
      <a href="#credentials" className={link}>
        Credentials
      </a>
      <a href="#webhooks" className={link}>
        Webhooks
      </a>
      <a href="#schemas" className={link}>
        Schemas
      </a>
    </nav>
  );
}

export function TagSection({ tag: t }: { tag: Tag }) {
  return (
    <section aria-labelledby={t.anchor} className="grid gap-3">
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
  );
}

function SectionTitle({ id, children }: { id: string; children: ReactNode }) {
  return (
    <h2 id={id} className="mt-4 scroll-mt-4 font-semibold text-lg">
      {children}
    </h2>
  );
}

export function CredentialsSection({ schemes }: { schemes: [string, { description: string }][] }) {
  return (
    <>
      <SectionTitle id="credentials">Credentials</SectionTitle>
      <Card>
        <CardContent>
          <dl className="grid gap-3 text-sm">
            {schemes.map(([name, scheme]) => (
              <div key={name} className="grid gap-0.5">
                <dt className="font-medium font-mono text-xs">{name}</dt>
                <dd className={`text-muted-foreground ${CODE_TEXT}`}>
                  <InlineCode text={scheme.description} />
                </dd>
              </div>
            ))}
          </dl>
        </CardContent>
      </Card>
    </>
  );
}

export function WebhooksSection({
  hooks,
}: {
  hooks: { name: string; schema: string | undefined; description: string }[];
}) {
  return (
    <>
      <SectionTitle id="webhooks">Webhooks</SectionTitle>
      {hooks.map((hook) => (
        <Card key={hook.name} id={`webhook-${hook.name}`}>
          <CardContent>
            <h3 className="font-semibold text-sm">
              <code className="font-mono">{hook.name}</code> —{" "}
              <SchemaName use={{ mediaType: "application/json", name: hook.schema }} />
            </h3>
            <p className={`mt-1 text-muted-foreground text-sm ${CODE_TEXT}`}>
              <InlineCode text={hook.description} />
            </p>
          </CardContent>
        </Card>
      ))}
    </>
  );
}

export function SchemasSection({ schemas }: { schemas: [string, unknown][] }) {
  return (
    <>
      <SectionTitle id="schemas">Schemas</SectionTitle>
      {schemas.map(([name, s]) => (
        <details
          key={name}
          id={`schema-${name}`}
          className="scroll-mt-4 rounded-xl border bg-card p-4 text-card-foreground shadow-xs"
        >
          <summary className="cursor-pointer font-medium font-mono text-sm">{name}</summary>
          <pre className={pre}>{JSON.stringify(s, null, 2)}</pre>
        </details>
      ))}
    </>
  );
}
