import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, crewClient, type Json } from "../support/api";
import {
  freePort,
  type Proc,
  ROOT,
  startServer,
  TEST_CREW_TOKEN,
  tempDir,
  withTestDatabase,
} from "../support/harness";

// The crews that ship in ./crews, served as `npm start` serves them: the README's first run
// completes, and the walkthrough in docs/reviews.md pauses, takes feedback and resumes.
let server: Proc & { url: string };
beforeAll(async () => {
  server = await startServer({
    CREWS_DIR: path.join(ROOT, "crews"),
    DATA_DIR: tempDir("examples"),
    CREW_TOKEN: TEST_CREW_TOKEN,
    OFFLINE_MODEL_DELAY_MS: "20",
  });
});
afterAll(async () => {
  await server?.kill();
});

const paused = (attempt: number) => (s: Json) =>
  s.status === "pending_human_input" &&
  s.pending_human_input?.task_id === "draft" &&
  s.pending_human_input.attempt === attempt;

describe("the example crews", () => {
  it("load without errors or warnings", () => {
    expect(server.output()).toMatch(/Blog post\n\s+http:\S+\/api\/crews\/blog-post/);
    expect(server.output()).not.toMatch(/ ✗ | ! /);
  });

  it("research-brief completes straight through with the README's inputs", async () => {
    const brief = crewClient(server.url, "research-brief", TEST_CREW_TOKEN);
    const inputs = await brief.inputs();
    expect(inputs.json.inputs).toEqual(["topic", "audience"]);
    expect(inputs.json.input_schema.required).toEqual(["topic", "audience"]);
    const id = await brief.start({ topic: "Heat pumps", audience: "home owners" });
    const done = await brief.waitFor(id, (s) => s.status === "completed" || s.status === "error");
    expect(done.status).toBe("completed");
    // docs/crews.md's walkthrough of output checks: JSON asked again, a guardrail fails then
    // passes, and the brief is kept as a file named from the inputs.
    const log = (await brief.events(id)).json.events as Json[];
    const checks = log
      .filter((e) => /^(output_invalid|guardrail_)/.test(e.type))
      .map((e) => `${e.task_id}:${e.type}`);
    expect(checks).toEqual([
      "research:output_invalid",
      "outline:guardrail_failed",
      "outline:guardrail_passed",
      "write:guardrail_passed",
    ]);
    expect(JSON.parse(done.tasks[0].output).findings).toHaveLength(1);
    const files = await call(
      server.url,
      "GET",
      `/api/crews/research-brief/executions/${id}/artifacts`,
      {
        token: TEST_CREW_TOKEN,
      },
    );
    expect(files.json.artifacts.map((a: Json) => a.name)).toEqual(["briefs/Heat-pumps.md"]);
  });

  it("blog-post pauses at draft, retries with feedback, and completes once approved", async () => {
    const blog = crewClient(server.url, "blog-post", TEST_CREW_TOKEN);
    const inputs = (await blog.inputs()).json;
    expect(inputs.inputs).toEqual(["topic", "audience", "tone", "words", "key_points"]);
    expect(inputs.input_schema.required).toEqual(["topic"]);
    expect(inputs.input_schema.properties.tone).toMatchObject({
      enum: ["friendly", "neutral", "formal"],
      "x-control": "select",
    });

    const id = await blog.start({ topic: "Heat pumps" });
    let s = await blog.waitFor(id, paused(1));
    expect(s.pending_human_input.output).toContain("Heat pumps");

    const back = await blog.resume({
      execution_id: id,
      task_id: "draft",
      human_feedback: "Mention costs.",
      is_approve: false,
    });
    expect(back.status, back.text).toBe(200);
    expect(back.json.status).toBe("retrying");
    s = await blog.waitFor(id, paused(2));
    expect(s.pending_human_input.output).toContain("Mention costs.");

    const ok = await blog.resume({
      execution_id: id,
      task_id: "draft",
      human_feedback: "Good.",
      is_approve: true,
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.status).toBe("resumed");
    s = await blog.waitFor(id, (x) => x.status === "completed" || x.status === "error");
    expect(s.status).toBe("completed");
    expect(s.result).toBeTruthy();
  });
});

describe("the example flow", () => {
  it("runs as a CrewAI client drives a deployed flow: inputs, kickoff, status, resume", async () => {
    const flow = crewClient(server.url, "launch-announcement", TEST_CREW_TOKEN);
    const inputs = (await flow.inputs()).json;
    // The state's fields: required unless the flow gives them a default.
    expect(inputs.inputs).toEqual(["product", "audience", "highlights"]);
    expect(inputs.input_schema.required).toEqual(["product"]);
    expect(inputs.input_schema.properties.audience.enum).toEqual(["customers", "developers"]);
    // A state that does not match the flow's schema is refused before anything is queued.
    const bad = await flow.kickoff({ inputs: { product: "Deck", audience: "investors" } });
    expect(bad.status, bad.text).toBe(422);

    const id = await flow.start({ product: "Crewdeck 2", audience: "developers" });
    let s = await flow.waitFor(
      id,
      (x) => x.status === "pending_human_input" || x.state === "FAILED",
    );
    expect(s.state).toBe("RUNNING"); // CrewAI's clients keep polling while a review is open
    expect(s.pending_human_input.task_id).toBe("sign_off");
    expect(s.pending_human_input.output).toContain("## Crewdeck 2");
    expect(s.flow.path.map((p: Json) => [p.method, p.outcome])).toEqual([
      ["draft", null],
      ["pick_channel", "changelog"],
      ["changelog_entry", null],
    ]);
    // The crew it ran is a run of its own, with its own status.
    const nested = s.flow.path[0].nested_runs[0];
    const child = await flow.status(nested);
    expect(child.json).toMatchObject({ status: "completed", parent_execution_id: id });

    // CrewAI's resume body; the feedback names an outcome, so the flow routes there.
    const ok = await flow.resume({
      execution_id: id,
      task_id: "sign_off",
      human_feedback: "publish",
      is_approve: true,
    });
    expect(ok.status, ok.text).toBe(200);
    s = await flow.waitFor(id, (x) => x.state === "SUCCESS" || x.state === "FAILED");
    expect(s.state).toBe("SUCCESS");
    expect(s.result).toBe("Published: Crewdeck 2");
    expect(s.flow.path.at(-2)).toMatchObject({ method: "sign_off", outcome: "publish" });
    const events = (await flow.events(id)).json.events.map((e: Json) => e.type);
    expect(events).toContain("review_submitted");
    expect(events.at(-1)).toBe("execution_completed");
  });
});

describe("npm start", () => {
  it("prints the banner last, after the framework's own start-up lines", async () => {
    const port = await freePort();
    const proc = spawn(process.execPath, ["scripts/start.mjs"], {
      cwd: ROOT,
      // The suite's kind of database, as for every server a test starts, migrated: not initdb
      // and every migration at its start (about 10 CPU-s), which a test of its lines never needed.
      env: {
        ...(await withTestDatabase({
          ...process.env,
          NO_BUILD: "1",
          PORT: String(port),
          HOST: "127.0.0.1",
          DATA_DIR: tempDir("banner"),
          CREWS_DIR: path.join(ROOT, "crews"),
        })),
        NODE_ENV: "production",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    proc.stdout.on("data", (d) => (out += d));
    proc.stderr.on("data", (d) => (out += d));
    const exited = new Promise((r) => proc.once("exit", r));
    try {
      // The banner ends with the setup code; it is printed once the server answers.
      while (!/Setup code: \S+.*\n/.test(out)) {
        if (proc.exitCode !== null) throw new Error(`npm start exited:\n${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const banner = out.indexOf("Crewdeck is ready at");
      expect(out.indexOf("Ready in")).toBeGreaterThan(-1);
      expect(out.indexOf("Ready in")).toBeLessThan(banner);
      expect(out.slice(banner)).toContain(`http://localhost:${port}/api/crews/blog-post`);
      expect(out.slice(banner)).toContain(`Dashboard: open http://localhost:${port}/setup`);
      // Nothing but the banner after its first line.
      expect(out.trimEnd().endsWith(/Setup code: .*/.exec(out)?.[0] ?? "?")).toBe(true);
      expect(out.match(/Crewdeck is ready at/g)).toHaveLength(1);
    } finally {
      proc.kill("SIGTERM");
      await exited;
    }
  }, 90_000);
});
