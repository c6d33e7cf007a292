import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRemoteStatus } from "@/lib/deployments/remote-status";
import { call } from "../support/api";
import {
  type FakeCrewAI,
  failureScript,
  startFakeCrewAI,
  successScript,
} from "../support/fake-crewai";

const TOKEN = "crewai-test-token";
const ORDER = ["PENDING", "STARTED", "RUNNING", "SUCCESS"];

describe("fake CrewAI deployment", () => {
  let fake: FakeCrewAI;
  beforeAll(async () => {
    fake = await startFakeCrewAI({ token: TOKEN, inputs: ["topic"], script: successScript(300) });
  });
  afterAll(() => fake.close());

  it.each([
    ["no token", undefined],
    ["a wrong token", "nope"],
  ])("answers 401 with CrewAI's error shape to %s", async (_, token) => {
    const reply = await call(fake.url, "GET", "/", { token });
    expect(reply.status).toBe(401);
    expect(reply.json).toEqual({ error: "Unauthorized", message: "Invalid bearer token" });
  });

  it("serves health and inputs", async () => {
    const health = await call(fake.url, "GET", "/", { token: TOKEN });
    expect(health.status).toBe(200);
    expect(health.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(health.text).toBe("Healthy");
    expect((await call(fake.url, "GET", "/inputs", { token: TOKEN })).json).toEqual({
      inputs: ["topic"],
    });
  });

  it("rejects a kickoff without the required inputs", async () => {
    const reply = await call(fake.url, "POST", "/kickoff", { token: TOKEN, body: { inputs: {} } });
    expect(reply.status).toBe(422);
    expect(reply.json).toEqual({
      error: "Validation error",
      message: "Missing required inputs: topic",
    });
  });

  it("moves a kickoff from PENDING to SUCCESS as time passes, and never calls webhooks", async () => {
    const body = {
      inputs: { topic: "Heat pumps" },
      crewWebhookUrl: "http://127.0.0.1:9/never-called",
    };
    const kickoff = await call(fake.url, "POST", "/kickoff", { token: TOKEN, body });
    expect(kickoff.status).toBe(200);
    const id: string = kickoff.json.kickoff_id;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(fake.kickoffs.at(-1)).toEqual({ id, inputs: body.inputs, body });

    const seen: string[] = [];
    let last = await call(fake.url, "GET", `/status/${id}`, { token: TOKEN });
    for (;;) {
      expect(last.status).toBe(200);
      if (seen.at(-1) !== last.json.state) seen.push(last.json.state);
      if (last.json.state === "SUCCESS") break;
      await new Promise((r) => setTimeout(r, 10));
      last = await call(fake.url, "GET", `/status/${id}`, { token: TOKEN });
    }
    // Each state in order; a slow poll may skip a middle one, never go back.
    expect(seen[0]).toBe("PENDING");
    expect(seen).toEqual(ORDER.filter((s) => seen.includes(s)));
    expect(readRemoteStatus(last.json)).toMatchObject({
      state: "completed",
      result: "Final answer about Heat pumps",
      tasks: [
        { task_id: "research", output: "Notes on Heat pumps" },
        { task_id: "write", output: "Final answer about Heat pumps" },
      ],
    });
  });

  it("gives later kickoffs the script set last", async () => {
    fake.setScript(failureScript(0));
    const kickoff = await call(fake.url, "POST", "/kickoff", {
      token: TOKEN,
      body: { inputs: { topic: "x" } },
    });
    const status = await call(fake.url, "GET", `/status/${kickoff.json.kickoff_id}`, {
      token: TOKEN,
    });
    expect(status.json).toEqual({
      state: "FAILURE",
      status: "error",
      error: "Agent crashed: boom",
    });
    fake.setScript(successScript(300));
  });

  it("answers 404 to an unknown execution or path", async () => {
    const unknown = await call(fake.url, "GET", "/status/00000000-0000-4000-8000-000000000000", {
      token: TOKEN,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ error: "Not Found", message: "Execution not found" });
    expect((await call(fake.url, "GET", "/nope", { token: TOKEN })).status).toBe(404);
  });

  it("validates and stores resumes", async () => {
    const bad = await call(fake.url, "POST", "/resume", {
      token: TOKEN,
      body: { execution_id: "x", task_id: "write" },
    });
    expect(bad.status).toBe(422);
    expect(bad.json.message).toBe("Missing or invalid fields: human_feedback, is_approve");

    const id = fake.kickoffs[0]?.id;
    const body = { execution_id: id, task_id: "write", human_feedback: "Good", is_approve: true };
    const ok = await call(fake.url, "POST", "/resume", { token: TOKEN, body });
    expect(ok.json).toEqual({ status: "resumed", message: "Execution resumed" });
    expect(fake.resumes).toEqual([body]);
    expect(fake.requests).toBeGreaterThan(10);
  });

  it("stops answering once closed", async () => {
    const other = await startFakeCrewAI({ token: TOKEN });
    await other.close();
    await expect(fetch(other.url)).rejects.toThrow();
  });
});
