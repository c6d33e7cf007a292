import { beforeAll, describe, expect, inject, it } from "vitest";
import { call, crewClient, expectProblem, type Json } from "../support/api";
import { TEST_CREW_TOKEN, tokenCli } from "../support/harness";

// A crew with output_json, output_file and a guardrail, over the API: /status, the event log,
// the run's files, and who may download them.
const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");
const CREW = "checked";

let carolToken: string;
let erinToken: string;
let id: string;
let done: Json;

beforeAll(async () => {
  carolToken = (await tokenCli(["create", "--user", "carol.outputs@example.com"], serverEnv))
    .token as string;
  erinToken = (await tokenCli(["create", "--user", "erin.outputs@example.com"], serverEnv))
    .token as string;
  const carol = crewClient(baseUrl, CREW, carolToken);
  id = await carol.start({ product: "Acme kettle" });
  done = await carol.waitFor(id, (s) => s.status === "completed" || s.status === "error");
});

const files = (token: string) =>
  call(baseUrl, "GET", `/api/crews/${CREW}/executions/${id}/artifacts`, { token });
const download = (token: string | undefined, name: string) =>
  call(baseUrl, "GET", `/api/crews/${CREW}/executions/${id}/artifacts/${name}`, { token });

describe("output checks over the API", () => {
  it("/status has the structured output as JSON text and the checked summary", () => {
    expect(done.status, done.result).toBe("completed");
    const assess = JSON.parse(done.tasks[0].output);
    expect(assess).toEqual({ verdict: "verdict: Assess Acme kettle for a buyer.", score: 1 });
    expect(done.crew_output.tasks[0].output).toBe(done.tasks[0].output);
    expect(done.result.split(/\s+/).length).toBeLessThanOrEqual(20);
  });

  it("the event log records the JSON retry and the guardrail's fail → retry → pass", async () => {
    const log = (await crewClient(baseUrl, CREW, carolToken).events(id)).json.events as Json[];
    const checks = log.filter((e) => /^(output_invalid|guardrail_|task_completed)/.test(e.type));
    expect(checks.map((e) => `${e.task_id}:${e.type}`)).toEqual([
      "assess:output_invalid",
      "assess:task_completed",
      "summary:guardrail_failed",
      "summary:guardrail_passed",
      "summary:task_completed",
    ]);
    expect(checks[0].data.errors).toEqual([
      "/ must NOT have additional properties ('_written_by')",
    ]);
    expect(checks[2].data).toMatchObject({
      guardrail: "The summary must be at most 20 words.",
      retry: 1,
      max_retries: 2,
      final: false,
    });
    expect(checks[2].data.reason).toMatch(
      /^The output has \d+ words; the rule allows at most 20\.$/,
    );
    expect(checks[1].data).toMatchObject({
      format: "json",
      artifact: { name: "assessments/Acme-kettle.json", content_type: "application/json" },
    });
    expect(checks.every((e) => e.attempt === 1)).toBe(true);
  });

  it("lists the run's files and downloads each as an attachment", async () => {
    const list = await files(carolToken);
    expect(list.status).toBe(200);
    expect(list.json.artifacts.map((a: Json) => [a.name, a.task_id, a.content_type])).toEqual([
      ["assessments/Acme-kettle.json", "assess", "application/json"],
      ["summary.md", "summary", "text/markdown; charset=utf-8"],
    ]);
    const first = list.json.artifacts[0];
    expect(first.download_url).toBe(
      `/api/crews/${CREW}/executions/${id}/artifacts/assessments/Acme-kettle.json`,
    );
    const r = await call(baseUrl, "GET", first.download_url, { token: carolToken });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(r.headers.get("content-disposition")).toBe(
      `attachment; filename="Acme-kettle.json"; filename*=UTF-8''Acme-kettle.json`,
    );
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    expect(r.text).toBe(done.tasks[0].output);
    expect(first.bytes).toBe(Buffer.byteLength(r.text));
    const md = await download(carolToken, "summary.md");
    expect(md.text).toBe(done.result);
  });

  it("only those who may see the run may download its files", async () => {
    expectProblem(await files(erinToken), 404);
    expectProblem(await download(erinToken, "summary.md"), 404);
    expect((await download(TEST_CREW_TOKEN, "summary.md")).status).toBe(200);
    expect((await download(undefined, "summary.md")).status).toBe(401);
    expectProblem(await download(carolToken, "nothing.md"), 404);
    expectProblem(await download(carolToken, "..%2F..%2Fetc%2Fpasswd"), 404);
    expectProblem(
      await call(baseUrl, "GET", `/api/crews/brief/executions/${id}/artifacts/summary.md`, {
        token: carolToken,
      }),
      404,
    );
  });
});
