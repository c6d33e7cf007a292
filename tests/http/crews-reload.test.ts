import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crewClient, type Reply, until } from "../support/api";
import {
  FIXTURE_CREWS,
  type Proc,
  startServer,
  TEST_ADMIN,
  TEST_CREW_TOKEN,
  tempDir,
} from "../support/harness";
import { signIn } from "../support/session";

// Crews change on disk while the server runs: no restart. A new crew folder is served, a broken
// one answers with its load error (logged once), and fixing it brings it back.
let server: Proc & { url: string };
let crewsDir: string;
beforeAll(async () => {
  crewsDir = tempDir("reload-crews");
  fs.cpSync(path.join(FIXTURE_CREWS, "brief"), path.join(crewsDir, "brief"), { recursive: true });
  server = await startServer({
    CREWS_DIR: crewsDir,
    DATA_DIR: tempDir("reload-data"),
    CREW_TOKEN: TEST_CREW_TOKEN,
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
  });
});
afterAll(async () => {
  await server?.kill();
  if (crewsDir) fs.rmSync(crewsDir, { recursive: true, force: true });
});

const AGENTS = `
researcher:
  role: "{sector} researcher"
  goal: Find facts
  backstory: Careful.
  verbose: true
`;
const TASKS = `
research_task:
  description: "Research {sector} for {reader}."
  expected_output: Facts
  human_input: true
`;
const write = (rel: string, content: string) => {
  const file = path.join(crewsDir, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
};
// The dashboard's Crews page, as its HTML says it.
const crewsPage = async () => {
  const cookie = await signIn(server.url, TEST_ADMIN.email, TEST_ADMIN.password);
  const res = await fetch(`${server.url}/crews`, { headers: { cookie } });
  expect(res.status).toBe(200);
  return (await res.text()).replaceAll("&#x27;", "'").replaceAll("<!-- -->", "");
};
const inputsWhen = (what: string, ok: (r: Reply) => boolean) =>
  until(what, () => crewClient(server.url, "added", TEST_CREW_TOKEN).inputs(), ok, 60_000);

describe("editing CREWS_DIR while the server runs", () => {
  it("serves a crew folder added after start", async () => {
    expect((await crewClient(server.url, "added", TEST_CREW_TOKEN).inputs()).status).toBe(404);
    // A CrewAI project as `crewai create crew --classic` lays it out; its task names no agent.
    write("added/src/added/config/agents.yaml", AGENTS);
    write("added/src/added/config/tasks.yaml", TASKS);
    const r = await inputsWhen("the new crew", (x) => x.status === 200);
    expect(r.json.inputs).toEqual(["sector", "reader"]);
    // The dashboard lists it, with the key it ignored.
    const page = await crewsPage();
    expect(page).toContain("added: loaded with warnings");
    expect(page).toContain("researcher.verbose");
    // The crew that was there all along is still served.
    expect((await crewClient(server.url, "brief", TEST_CREW_TOKEN).inputs()).status).toBe(200);
  });

  it("reports a crew whose files break (once in the log), its runs go on, and it comes back once fixed", async () => {
    // A run started before the break, paused for review.
    const added = crewClient(server.url, "added", TEST_CREW_TOKEN);
    const id = await added.start({ sector: "Energy", reader: "owners" });
    await added.waitFor(id, (x) => x.status === "pending_human_input", 60_000);

    write("added/src/added/config/agents.yaml", `${AGENTS}  tools: [CodeInterpreterTool]\n`);
    const broken = await inputsWhen("the load error", (x) => x.status === 404);
    const reason =
      "unknown tool 'CodeInterpreterTool' (agent researcher): available tools are current_date, word_count";
    expect(broken.json.detail).toContain(reason);
    expect(broken.json.detail).toContain(
      path.join("added", "src", "added", "config", "agents.yaml"),
    );
    // Asking again does not log again: the log has it once per change.
    await crewClient(server.url, "added", TEST_CREW_TOKEN).inputs();
    const logged = server
      .output()
      .split("\n")
      .filter((l) => l.includes(reason));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^\s+✗ added: /);
    const page = await crewsPage();
    expect(page).toContain("added failed to load");
    expect(page).toContain(reason);

    // New runs are refused; the run already started goes on with the crew it started with.
    const refused = await added.kickoff({ inputs: { sector: "Water", reader: "owners" } });
    expect(refused.status).toBe(404);
    expect((await added.status(id)).json.status).toBe("pending_human_input");
    const cookie = await signIn(server.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const runPage = await fetch(`${server.url}/crews/added/runs/${id}`, { headers: { cookie } });
    expect(runPage.status).toBe(200);
    const approved = await added.resume({
      execution_id: id,
      task_id: "research_task",
      human_feedback: "Good.",
      is_approve: true,
    });
    expect(approved.status, approved.text).toBe(200);
    const done = await added.waitFor(id, (x) => x.status !== "running" && x.status !== "queued");
    expect(done.status).toBe("completed");

    write("added/src/added/config/agents.yaml", AGENTS.replace("Find facts", "Find {angle}"));
    const fixed = await inputsWhen("the fixed crew", (x) => x.status === 200);
    expect(fixed.json.inputs).toEqual(["sector", "angle", "reader"]);
    expect(await crewsPage()).not.toContain("added failed to load");

    // A kickoff queues the crew as it is now, not as it was serialized for an earlier kickoff.
    const reloads = () => server.output().split("Crews reloaded from").length;
    const before = reloads();
    write(
      "added/src/added/config/tasks.yaml",
      `${TASKS}\nsummary_task:\n  description: "Summarise for {reader}."\n  expected_output: A summary\n`,
    );
    await until("the reload", reloads, (n) => n > before, 60_000);
    const id2 = await added.start({ sector: "Air", angle: "costs", reader: "owners" });
    const queued = await added.status(id2);
    expect(queued.json.tasks.map((t: { task_id: string }) => t.task_id)).toEqual([
      "research_task",
      "summary_task",
    ]);
  });

  it("stops serving a crew folder that is removed", async () => {
    fs.rmSync(path.join(crewsDir, "added"), { recursive: true });
    const gone = await inputsWhen("the crew gone", (x) => x.status === 404);
    expect(gone.json.detail).toBe("No crew named 'added'.");
  });
});
