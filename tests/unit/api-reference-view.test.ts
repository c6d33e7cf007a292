import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/api/openapi";
import { type OpenApiLike, referenceView, typeOf } from "@/lib/api/openapi/reference-view";

// The API reference page renders this view of the OpenAPI document: every operation, with who may
// call it in words, its parameters and the names of the schemas it takes and answers.
const doc = openApiDocument() as unknown as OpenApiLike;
const view = referenceView(doc);
const find = (method: string, path: string) =>
  view.flatMap((t) => t.operations).find((o) => o.method === method && o.path === path);

describe("the API reference view", () => {
  it("shows every operation of the document once, grouped by tag", () => {
    const shown = view.flatMap((t) => t.operations.map((o) => `${o.method} ${o.path}`));
    const inDoc = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(shown.sort()).toEqual(inDoc.sort());
    expect(view.map((t) => t.name)).toEqual([
      "Crew API",
      "Runs",
      "Schedules and triggers",
      "Experiments",
      "Agent protocols",
      "Webhooks",
      "Integrations",
      "Notifications",
      "Administration",
      "Service",
    ]);
  });

  it("says who may call in words", () => {
    expect(find("POST", "/api/crews/{crew}/resume")?.access).toEqual([
      "Bearer token: organization token; user token (reviewer or above)",
      "Dashboard session: reviewer or above",
    ]);
    expect(find("GET", "/api/crews/{crew}/status/{kickoff_id}")?.access).toEqual([
      "Bearer token: organization token; user token (any role)",
      "Dashboard session: any role",
    ]);
    expect(find("GET", "/api/webhooks/deliveries")?.access).toEqual([
      "Bearer token: organization token",
      "Dashboard session: admin only",
    ]);
    expect(find("GET", "/api/users")?.access).toEqual(["Dashboard session: admin only"]);
    expect(find("POST", "/api/integrations/actions/{name}/execute")?.access).toEqual([
      "Integration token",
    ]);
    expect(find("GET", "/api/healthz")?.access).toEqual(["No credential: anyone may call it"]);
  });

  it("names the request and response schemas, and resolves shared answers", () => {
    const kickoff = find("POST", "/api/crews/{crew}/kickoff");
    expect(kickoff?.body).toMatchObject({ name: "KickoffRequest", required: true });
    expect(kickoff?.responses.find((r) => r.code === "200")?.schema?.name).toBe("KickoffResponse");
    expect(kickoff?.responses.find((r) => r.code === "422")?.schema?.name).toBe("Problem");
    expect(kickoff?.responses.find((r) => r.code === "401")?.description).toMatch(/credential/);
    const stream = find("GET", "/api/crews/{crew}/executions/{kickoff_id}/stream");
    expect(stream?.responses[0]?.schema).toEqual({
      mediaType: "text/event-stream",
      inline: "string",
    });
    expect(stream?.parameters.map((p) => `${p.in} ${p.name}`)).toEqual([
      "path crew",
      "path kickoff_id",
      "header Last-Event-ID",
      "query after",
    ]);
  });

  it.each([
    [{ type: "string", format: "uuid" }, "string (uuid)"],
    [{ type: "integer", minimum: 0 }, "integer"],
    [{ type: "string", enum: ["task", "step"] }, "one of task | step"],
    [{ anyOf: [{ type: "string" }, { type: "array" }] }, "string or array"],
    [{ $ref: "#/components/schemas/Problem" }, "Problem"],
    [undefined, "any"],
  ])("describes %j as %s", (schema, text) => expect(typeOf(schema)).toBe(text));
});
