import type { Metadata } from "next";
import { InlineCode } from "@/components/inline-code";
import { openApiDocument } from "@/lib/api/openapi";

export const metadata: Metadata = { title: "API reference" };

type Operation = {
  summary: string;
  description?: string;
  parameters?: { name: string; in: string; description?: string }[];
  requestBody?: { content: Record<string, { schema: { $ref: string } }> };
  responses: Record<string, { description: string }>;
};

// A readable view of /api/openapi.json: the same document, so the two never disagree.
export default function ApiReference() {
  const doc = openApiDocument();
  const schemas = doc.components.schemas as Record<string, unknown>;
  return (
    <>
      <h1>Crew Execution Service API</h1>
      <p>
        <InlineCode text={doc.info.description} />
      </p>
      <p className="muted">
        Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI {doc.openapi}).
      </p>
      {Object.entries(doc.paths).map(([path, methods]) =>
        Object.entries(methods as Record<string, Operation>).map(([method, op]) => {
          const ref = op.requestBody
            ? Object.values(op.requestBody.content)[0]?.schema.$ref.split("/").at(-1)
            : undefined;
          return (
            <section key={`${method} ${path}`} className="card" id={`${method}-${path}`}>
              <h2 style={{ marginTop: 0 }}>
                <span className="method">{method.toUpperCase()}</span>{" "}
                <code>{`/api/crews/{crew}${path === "/" ? "/" : path}`}</code>
              </h2>
              <p>{op.summary}</p>
              {op.description && (
                <p className="muted">
                  <InlineCode text={op.description} />
                </p>
              )}
              {ref && (
                <details>
                  <summary>Request body: {ref}</summary>
                  <pre>{JSON.stringify(schemas[ref], null, 2)}</pre>
                </details>
              )}
              <table>
                <tbody>
                  {Object.entries(op.responses).map(([code, r]) => (
                    <tr key={code}>
                      <td>
                        <code>{code}</code>
                      </td>
                      <td>
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
      <h2>Webhooks</h2>
      {Object.entries(doc.webhooks).map(([name, hook]) => (
        <section key={name} className="card" id={`webhook-${name}`}>
          <h3 style={{ marginTop: 0 }}>
            <code>{name}</code> —{" "}
            {hook.post.requestBody.content["application/json"].schema.$ref.split("/").at(-1)}
          </h3>
          <p className="muted">
            <InlineCode text={hook.post.description} />
          </p>
        </section>
      ))}
      <h2>Schemas</h2>
      {Object.entries(schemas).map(([name, s]) => (
        <details key={name} className="card">
          <summary>{name}</summary>
          <pre>{JSON.stringify(s, null, 2)}</pre>
        </details>
      ))}
    </>
  );
}
