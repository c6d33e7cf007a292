import { describe, expect, it } from "vitest";
import { z } from "zod";
import { zodFieldErrors } from "@/lib/errors";
import { applyMapping, checkMapping, MappingSchema } from "@/lib/triggers/payload-mapping";

// A GitHub "issues" delivery, cut down to what the mappings below read.
const PAYLOAD = {
  action: "opened",
  issue: {
    number: 42,
    title: "Crash on start",
    body: null,
    labels: [{ name: "bug" }, { name: "p1" }],
    assignee: { login: "ada" },
  },
  repository: { full_name: "acme/widgets", topics: ["crews"] },
};
const HEADERS = { "x-github-event": "issues", "x-github-delivery": "d-1" };

describe("applyMapping with JSONPath", () => {
  it("gives a nested field's value, an array for several nodes, and leaves out what is missing", () => {
    const { inputs, errors } = applyMapping(
      {
        title: "$.issue.title",
        number: "$.issue.number",
        assignee: "$.issue.assignee",
        labels: "$.issue.labels[*].name",
        first_label: "$.issue.labels[0].name",
        topics: "$.repository.topics[*]",
        body: "$.issue.body",
        milestone: "$.issue.milestone.title",
        quoted: "$['repository']['full_name']",
      },
      PAYLOAD,
      HEADERS,
    );
    expect(errors).toEqual([]);
    expect(inputs).toEqual({
      title: "Crash on start",
      number: 42,
      assignee: { login: "ada" },
      labels: ["bug", "p1"],
      first_label: "bug",
      // A wildcard gives an array, even of one node: its shape does not change with the payload.
      topics: ["crews"],
      // null is a value: only a path that selects nothing leaves the input out.
      body: null,
      quoted: "acme/widgets",
    });
    expect("milestone" in inputs).toBe(false);
  });

  it("filters with RFC 9535 expressions", () => {
    const { inputs } = applyMapping(
      { urgent: "$.issue.labels[?@.name == 'p1'].name", all: "$..login" },
      PAYLOAD,
      HEADERS,
    );
    expect(inputs).toEqual({ urgent: ["p1"], all: ["ada"] });
  });

  it("selects nothing from a payload that is not an object", () => {
    for (const payload of [null, "text", 3, []])
      expect(applyMapping({ title: "$.issue.title" }, payload, {})).toEqual({
        inputs: {},
        errors: [],
      });
    expect(applyMapping({ whole: "$" }, "text", {}).inputs).toEqual({ whole: "text" });
    // No JSON body at all: CEL reads payload as null.
    expect(applyMapping({ whole: "payload" }, undefined, {}).inputs).toEqual({ whole: null });
  });
});

describe("applyMapping with CEL", () => {
  it("concatenates strings, reads headers and gives whole numbers back as numbers", () => {
    const { inputs, errors } = applyMapping(
      {
        heading: 'payload.issue.title + " #" + string(payload.issue.number)',
        event: 'headers["x-github-event"]',
        next: "payload.issue.number + 1",
        names: "payload.issue.labels.map(l, l.name)",
        has_milestone: "has(payload.issue.milestone)",
        summary: '{"repo": payload.repository.full_name, "count": size(payload.issue.labels)}',
      },
      PAYLOAD,
      HEADERS,
    );
    expect(errors).toEqual([]);
    expect(inputs).toEqual({
      heading: "Crash on start #42",
      event: "issues",
      next: 43,
      names: ["bug", "p1"],
      has_milestone: false,
      summary: { repo: "acme/widgets", count: 2 },
    });
  });

  it("reports an error on one input for that input and still maps the others", () => {
    const { inputs, errors } = applyMapping(
      {
        title: "$.issue.title",
        milestone: "payload.issue.milestone.title",
        mixed: "payload.issue.title + payload.issue.number",
        heading: 'payload.issue.title + "!"',
      },
      PAYLOAD,
      HEADERS,
    );
    expect(inputs).toEqual({ title: "Crash on start", heading: "Crash on start!" });
    expect(errors.map((e) => e.path)).toEqual(["mapping.milestone", "mapping.mixed"]);
    expect(errors[0]?.message).toBe("Could not evaluate the expression: No such key: milestone.");
    expect(errors[1]?.message).toMatch(/^Could not evaluate the expression: no such overload/);
  });
});

describe("checkMapping", () => {
  it("passes good JSONPath and CEL", () => {
    expect(
      checkMapping({
        title: "$.issue.title",
        labels: "$.issue.labels[*].name",
        _heading2: 'payload.issue.title + " #" + string(payload.issue.number)',
        event: "headers['x-github-event']",
      }),
    ).toEqual([]);
  });

  it("reports each bad expression under its input's name", () => {
    const errors = checkMapping({
      ok: "$.issue.title",
      dangling: "$.issue.",
      no_dollar: "$issue",
      unclosed: "$.labels[0",
      cel_syntax: "payload.issue.title +",
      misspelt: "paylod.issue.title",
      empty: "   ",
      long: `$.${"a".repeat(499)}`,
    });
    expect(errors.map((e) => e.path)).toEqual([
      "mapping.dangling",
      "mapping.no_dollar",
      "mapping.unclosed",
      "mapping.cel_syntax",
      "mapping.misspelt",
      "mapping.empty",
      "mapping.long",
    ]);
    const message = (name: string) => errors.find((e) => e.path === `mapping.${name}`)?.message;
    expect(message("dangling")).toBe(
      "Not a JSONPath (RFC 9535) expression: it ends too early, at character 9.",
    );
    expect(message("no_dollar")).toBe(
      'Not a JSONPath (RFC 9535) expression: unexpected "i" at character 2.',
    );
    expect(message("cel_syntax")).toBe(
      "Not a CEL expression over payload and headers: Unexpected token: EOF.",
    );
    expect(message("misspelt")).toBe(
      "Not a CEL expression over payload and headers: Unknown variable: paylod.",
    );
    expect(message("empty")).toBe("The expression is empty.");
    expect(message("long")).toBe("An expression is at most 500 characters.");
  });

  it("holds input names to identifiers, and a mapping to 50 inputs", () => {
    const errors = checkMapping({
      "9lives": "$.a",
      "with-dash": "$.a",
      "": "$.a",
      __proto__ok: "$.a",
    });
    expect(errors.map((e) => e.path)).toEqual(["mapping.9lives", "mapping.with-dash", "mapping."]);
    expect(errors[0]?.message).toBe(
      "An input name starts with a letter or _ and holds only letters, digits and _.",
    );
    // JSON.parse makes __proto__ an own key, as a request body would.
    expect(checkMapping(JSON.parse('{"__proto__": "$.a"}'))).toEqual([
      { path: "mapping.__proto__", message: "__proto__ cannot name an input." },
    ]);

    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`in${i}`, "$.a"]));
    expect(checkMapping(fifty)).toEqual([]);
    const tooMany = { ...fifty, one_more: "$.a" };
    expect(checkMapping(tooMany)).toEqual([
      { path: "mapping", message: "A mapping has at most 50 inputs; this one has 51." },
    ]);
    expect(applyMapping(tooMany, { a: 1 }, {}).inputs).toEqual({});
  });

  it("leaves a bad input out of applyMapping with the same message", () => {
    const { inputs, errors } = applyMapping(
      { title: "$.issue.title", bad: "$.issue[" },
      PAYLOAD,
      HEADERS,
    );
    expect(inputs).toEqual({ title: "Crash on start" });
    expect(errors).toEqual(checkMapping({ bad: "$.issue[" }));
  });

  it("gives the same issues as a zod field, under the field's name", () => {
    const Body = z.object({ mapping: MappingSchema });
    const result = Body.safeParse({ mapping: { ok: "$.a", bad: "$.a[" } });
    expect(result.success).toBe(false);
    if (!result.success)
      expect(zodFieldErrors(result.error)).toEqual(checkMapping({ ok: "$.a", bad: "$.a[" }));
    expect(Body.safeParse({ mapping: { title: "$.issue.title" } }).success).toBe(true);
  });
});
