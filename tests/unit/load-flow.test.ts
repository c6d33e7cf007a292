import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadCrews } from "@/lib/crew/load-crews";
import { readFlow } from "@/lib/crew/load-flow";
import { LoadError } from "@/lib/crew/read-files";

// CrewAI's declarative Flow (flow.yaml, crewai.flow/v1) read as CrewAI's FlowDefinition reads it:
// its refusals with its reasons, what it only logs as warnings, and Python refused by name.
const EXAMPLE = path.resolve("tests/fixtures/flows/research-review/flow.yaml");

type Warning = { file: string; key: string; message: string };
function read(yaml: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-flow-"));
  const file = path.join(dir, "flow.yaml");
  fs.writeFileSync(file, yaml);
  const warnings: Warning[] = [];
  const flow = readFlow(file, (f, key, message) =>
    warnings.push({ file: path.basename(f), key, message }),
  );
  return { flow, warnings };
}
function refusal(yaml: string) {
  try {
    read(yaml);
  } catch (err) {
    if (err instanceof LoadError) return { key: err.key, reason: err.message };
    throw err;
  }
  throw new Error("the flow loaded");
}

const method = (body: string) => `schema: crewai.flow/v1
name: TestFlow
methods:
  first:
    start: true
    do: { call: expression, expr: state.topic }
${body}`;

describe("reading a declarative flow", () => {
  it("reads CrewAI's own example whole", () => {
    const warnings: Warning[] = [];
    const flow = readFlow(EXAMPLE, (file, key, message) => warnings.push({ file, key, message }));
    expect(warnings).toEqual([]);
    expect(flow.name).toBe("ResearchReviewFlow");
    expect(flow.config.max_method_calls).toBe(100);
    expect(flow.state).toMatchObject({
      type: "json_schema",
      default: { topic: "AI agent orchestration" },
    });
    expect(Object.keys(flow.methods)).toEqual([
      "research_brief",
      "route_followup",
      "write_followup",
    ]);
    const brief = flow.methods.research_brief;
    expect(brief?.start).toBe(true);
    expect(brief?.do).toMatchObject({
      call: "crew",
      with: { tasks: [{ name: "research_task", agent: "researcher" }, { name: "review_task" }] },
      // biome-ignore lint/suspicious/noTemplateCurlyInString: CEL, as CrewAI writes it
      inputs: { topic: "${state.topic}", audience: "${state.audience}" },
    });
    expect(flow.methods.route_followup).toMatchObject({
      listen: "research_brief",
      router: true,
      emit: ["followup", "done"],
      do: { call: "agent", with: { role: "Follow-up router" } },
    });
    expect(flow.methods.write_followup?.listen).toBe("followup");
  });

  it("takes inline agents as a list, and feedback with outcomes as a router", () => {
    const { flow } = read(
      method(`  review:
    listen: { or: [first, { and: [a, b] }] }
    human_feedback: { message: Approve?, emit: [approved, revise], default_outcome: revise }
    do:
      call: crew
      with:
        agents: [{ name: writer, role: Writer, goal: g, backstory: b }, { critic: { role: Critic } }]
        tasks: [{ description: d, expected_output: e, agent: writer }]
`),
    );
    const review = flow.methods.review;
    expect(review?.router).toBe(true);
    expect(review?.emit).toBeUndefined();
    expect(review?.do).toMatchObject({
      with: { agents: { writer: { role: "Writer" }, critic: { role: "Critic" } } },
    });
  });

  it("refuses what CrewAI refuses, with its reason and the key", () => {
    expect(
      refusal(
        method(
          "  first_again:\n    listen: first_again\n    do: { call: expression, expr: '1' }\n",
        ),
      ),
    ).toMatchObject({
      key: "methods.first_again.listen",
      reason: expect.stringContaining("infinite loop"),
    });
    expect(
      refusal(method("  2nd:\n    listen: first\n    do: { call: expression, expr: '1' }\n")),
    ).toMatchObject({ key: "methods.2nd", reason: expect.stringContaining("must match") });
    expect(
      refusal(
        method(
          "  both:\n    listen: first\n    do: { call: crew, from_declaration: crews/x, with: { agents: { a: {} }, tasks: [{ description: d, expected_output: e }] } }\n",
        ),
      ).reason,
    ).toContain("exactly one of from_declaration or with");
    expect(
      refusal(method("  none:\n    listen: first\n    do: { call: crew }\n")).reason,
    ).toContain("exactly one of from_declaration or with");
    // Actions forbid keys they do not know.
    expect(
      refusal(
        method("  odd:\n    listen: first\n    do: { call: expression, expr: '1', extra: 2 }\n"),
      ),
    ).toMatchObject({ key: "methods.odd.do", reason: 'Unrecognized key: "extra"' });
    expect(refusal(method("  odd:\n    listen: first\n    do: { call: nope }\n"))).toMatchObject({
      key: "methods.odd.do.call",
      reason: expect.stringContaining("'expression'"),
    });
    expect(refusal("name: [not, a, string]\n").key).toBe("name");
    expect(refusal("schema: crewai.flow/v2\nname: X\n").key).toBe("schema");
    expect(refusal("- a list\n").reason).toContain("must contain a mapping");
  });

  it("refuses CEL that does not parse or reads outside state and outputs, as CrewAI does", () => {
    const cel = (body: string) => refusal(method(`  later:\n    listen: first\n${body}`));
    expect(cel("    do: { call: expression, expr: 'state.(' }\n")).toMatchObject({
      key: "methods.later.do.expr",
      reason: expect.stringContaining("invalid CEL expression at methods.later.do.expr"),
    });
    expect(cel("    do: { call: expression, expr: 'secrets.key' }\n")).toMatchObject({
      key: "methods.later.do.expr",
      reason: expect.stringContaining("unknown CEL root at methods.later.do.expr: 'secrets'"),
    });
    // biome-ignore lint/suspicious/noTemplateCurlyInString: CEL, as CrewAI writes it
    expect(cel("    do: { call: expression, expr: '${}' }\n").reason).toContain(
      "empty CEL expression",
    );
    // In a template, each ${...} of each string, however deep.
    const agent = cel(`    do:
      call: agent
      with: { role: r, goal: g, backstory: b, input: "Topic \${state.topic}, notes \${env.HOME}" }
`);
    expect(agent).toMatchObject({
      key: "methods.later.do.with.input",
      reason: expect.stringContaining(
        "unknown CEL root at methods.later.do.with.input (expression 2): 'env'",
      ),
    });
    expect(
      cel(`    do:
      call: crew
      from_declaration: crews/research
      inputs: { topics: ["\${state.a}", { deep: "\${item.b}" }] }
`),
    ).toMatchObject({
      key: "methods.later.do.inputs",
      reason: expect.stringContaining("inputs.topics[1].deep: 'item'"),
    });
    expect(
      cel(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: CEL, as CrewAI writes it
        "    do: { call: agent, with: { role: r, goal: g, backstory: b, input: 'Hi ${state.x' } }\n",
      ),
    ).toMatchObject({
      key: "methods.later.do.with.input",
      reason: expect.stringContaining("unterminated"),
    });
  });

  it("lets CEL read the item inside each, and a macro its own variable, and a } in a string", () => {
    const { flow } = read(
      method(`  rows:
    listen: first
    do:
      call: each
      in: state.rows.filter(r, r.kind == 'invoice')
      do:
        - { name: tag, if: "item.kind == 'a}b'", action: { call: expression, expr: "outputs.first + item.kind" } }
        - { name: ask, action: { call: agent, with: { input: "Say \${ {'k': item.kind}.k } and \${'}'}" } } }
`),
    );
    expect(flow.methods.rows?.do.call).toBe("each");
    expect(
      refusal(
        method(`  rows:
    listen: first
    do: { call: each, in: item.rows, do: [{ name: a, action: { call: expression, expr: item } }] }
`),
      ),
    ).toMatchObject({ key: "methods.rows.do.in", reason: expect.stringContaining("'item'") });
  });

  it("refuses Python at load, naming the method and the reference, and what to use instead", () => {
    for (const [body, ref] of [
      ["do: { call: code, ref: 'my_project.flows:normalize' }", "my_project.flows:normalize"],
      ["do: { ref: 'my_project.flows:normalize' }", "my_project.flows:normalize"], // call defaults to code
      ["do: { call: tool, ref: 'my_project.tools:Search' }", "my_project.tools:Search"],
    ] as const) {
      const r = refusal(method(`  py:\n    listen: first\n    ${body}\n`));
      expect(r.key).toBe("methods.py.do");
      expect(r.reason).toContain("method 'py'");
      expect(r.reason).toContain(ref);
      expect(r.reason).toContain("MCP server");
    }
    expect(
      refusal(method("  py:\n    listen: first\n    do: { call: script, code: 'return 1' }\n"))
        .reason,
    ).toContain("`call: script` runs inline Python");
    const inEach = refusal(
      method(`  rows:
    listen: first
    do:
      call: each
      in: state.rows
      do:
        - { name: tag, action: { call: expression, expr: item } }
        - { name: clean, action: { call: script, code: 'return item.strip()' } }
`),
    );
    expect(inEach).toMatchObject({ key: "methods.rows.do.do[1].action" });
    expect(inEach.reason).toContain("method 'rows'");
  });

  it("warns of what CrewAI only logs, and of keys it ignores", () => {
    const { warnings } = read(
      `${method(`  pick:
    listen: first
    emit: [a, b]
    colour: blue
    do: { call: expression, expr: '1' }
  ask:
    listen: pick
    human_feedback: { message: Ok?, emit: [yes, no], default_outcome: maybe }
    do: { call: expression, expr: '1' }
  ask_plain:
    listen: pick
    human_feedback: { message: Ok?, default_outcome: yes }
    do: { call: expression, expr: '1' }
`)}owner: team-a\n`,
    );
    expect(warnings.map((w) => [w.key, w.message])).toEqual([
      ["owner", "unknown key ignored (not in crewai.flow/v1)"],
      ["methods.pick.colour", "unknown key ignored (not in crewai.flow/v1)"],
      ["methods.pick.emit", "emit is only used by routers to declare downstream events"],
      [
        "methods.ask.human_feedback.default_outcome",
        "default_outcome must be one of human_feedback.emit",
      ],
      [
        "methods.ask_plain.human_feedback.default_outcome",
        "default_outcome requires human_feedback.emit",
      ],
    ]);
  });

  it("serves a flow folder as a crew whose tasks are the flow's methods", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-flows-"));
    fs.cpSync(path.dirname(EXAMPLE), path.join(dir, "research-review"), { recursive: true });
    const catalog = loadCrews(dir);
    expect(catalog.errors).toEqual([]);
    expect(catalog.warnings).toEqual([]);
    const flow = catalog.crews.get("research-review");
    expect(flow?.name).toBe("ResearchReviewFlow");
    expect(flow?.tasks.map((t) => [t.id, t.agent])).toEqual([
      ["research_brief", "crew"],
      ["route_followup", "agent"],
      ["write_followup", "agent"],
    ]);
    // The state's fields are the inputs; their defaults make none required.
    expect(flow?.input_specs?.map((s) => [s.name, s.required, s.default])).toEqual([
      ["topic", false, "AI agent orchestration"],
      ["audience", false, "platform engineering leaders"],
    ]);
    // Each crew and agent a method calls is built at load.
    expect(Object.keys(flow?.flow?.crews ?? {})).toEqual([
      "research_brief",
      "route_followup",
      "write_followup",
    ]);
    expect(flow?.flow?.crews.research_brief?.tasks.map((t) => t.id)).toEqual([
      "research_task",
      "review_task",
    ]);
  });

  it("names the key of a mistake in an inline crew, as written in flow.yaml", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-flows-"));
    fs.mkdirSync(path.join(dir, "broken"));
    fs.writeFileSync(
      path.join(dir, "broken", "flow.yaml"),
      [
        "schema: crewai.flow/v1",
        "name: Broken",
        "methods:",
        "  go:",
        "    start: true",
        "    do:",
        "      call: crew",
        "      with:",
        "        agents: { a: { role: R, goal: G, backstory: B, tools: [no_such_tool] } }",
        "        tasks: [{ description: D, expected_output: E, agent: a }]",
      ].join("\n"),
    );
    const catalog = loadCrews(dir);
    expect(catalog.errors).toEqual([
      expect.objectContaining({
        file: "broken/flow.yaml",
        key: "methods.go.do.with.agents.a.tools.0",
        reason: expect.stringContaining("unknown tool 'no_such_tool'"),
      }),
    ]);
  });

  it("runs a crew declared in a folder under the flow's (from_declaration), and refuses one outside", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-flows-"));
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    };
    const flow = (declaration: string) =>
      [
        "schema: crewai.flow/v1",
        "name: Declared",
        "methods:",
        "  go:",
        "    start: true",
        "    do:",
        "      call: crew",
        `      from_declaration: ${declaration}`,
        "      inputs: { topic: tides }",
      ].join("\n");
    write(
      "declared/crews/research/crew.yaml",
      'agents:\n  a: { role: R, goal: G, backstory: B }\ntasks:\n  t: { description: "On {topic}", expected_output: E, agent: a }\n',
    );
    write("declared/flow.yaml", flow("crews/research"));
    write("outside/flow.yaml", flow("../declared/crews/research"));
    const catalog = loadCrews(dir);
    expect(catalog.crews.get("declared")?.flow?.crews.go?.tasks.map((t) => t.id)).toEqual(["t"]);
    expect(catalog.errors).toEqual([
      expect.objectContaining({
        slug: "outside",
        key: "methods.go.do.from_declaration",
        reason: expect.stringContaining("must be within the flow definition directory"),
      }),
    ]);
  });
});
