import { describe, expect, inject, it } from "vitest";
import { crewClient, type Json, until } from "../support/api";
import { CREWAI_CLIENTS } from "../support/crewai-clients";
import { TEST_CREW_TOKEN } from "../support/harness";

// CrewAI Flows over the crew API, driven as CrewAI's clients drive a deployment: CrewAI's own
// example flow unchanged (research-review-flow), and a flow with joins, a router, `each`, a nested
// crew whose task a person reviews, and human feedback routed by its outcome (release-flow).
const baseUrl = inject("baseUrl");
const url = (crew: string) => `${baseUrl}/api/crews/${crew}`;

describe("CrewAI's example flow", () => {
  for (const make of CREWAI_CLIENTS) {
    const client = make({ url: url("research-review-flow"), token: TEST_CREW_TOKEN });
    it(`runs to SUCCESS for ${client.name}, the router's branch taken`, async () => {
      const id = await client.kickoff({ topic: "Tidal power", audience: "engineers" });
      const done = await until(
        "the flow to finish",
        () => client.status(id),
        (s) => s.finished,
      );
      expect(client.outcome(done)).toEqual({ value: expect.any(String) });
      const s = (await crewClient(baseUrl, "research-review-flow", TEST_CREW_TOKEN).status(id))
        .json;
      expect(s.flow.path.map((p: Json) => [p.method, p.outcome])).toEqual([
        ["research_brief", null],
        ["route_followup", "followup"],
        ["write_followup", null],
      ]);
      expect(s.flow.state).toMatchObject({ topic: "Tidal power", audience: "engineers" });
    });
  }
});

describe("a flow with a nested review and a sign-off", () => {
  it("pauses for the nested crew's task and the sign-off, each resumed on the flow", async () => {
    const flow = crewClient(baseUrl, "release-flow", TEST_CREW_TOKEN);
    const id = await flow.start({ product: "Deck", changes: ["fix login", "add export"] });
    // The nested crew's review shows on the flow, and is resumed there by its task_id.
    let s = await flow.waitFor(id, (x) => x.pending_human_input?.task_id === "notes");
    expect(s).toMatchObject({ status: "pending_human_input", state: "RUNNING" });
    const notes = await flow.resume({
      execution_id: id,
      task_id: "notes",
      human_feedback: "Looks right.",
      is_approve: true,
    });
    expect(notes.status, notes.text).toBe(200);
    s = await flow.waitFor(id, (x) => x.pending_human_input?.task_id === "approve");
    expect(s.pending_human_inputs[0].feedback).toEqual({
      message: "Publish these notes?",
      outcomes: ["publish", "revise"],
      default_outcome: "revise",
    });
    // Free-text feedback that names no outcome: read by the method's model (here none is set
    // up), which leaves the default.
    const signOff = await flow.resume({
      execution_id: id,
      task_id: "approve",
      human_feedback: "Hold it for a day.",
      is_approve: true,
    });
    expect(signOff.status, signOff.text).toBe(200);
    s = await flow.waitFor(id, (x) => x.state === "SUCCESS" || x.state === "FAILED");
    expect(s.result).toBe("Revise: Deck");
    expect(s.flow.path.find((p: Json) => p.method === "approve")).toMatchObject({
      outcome: "revise",
      feedback: "Hold it for a day.",
    });
    // Stopping is refused once done; the nested run is its own, with the flow as its parent.
    const nested = s.flow.path.find((p: Json) => p.method === "draft").nested_runs[0];
    expect((await flow.status(nested)).json.parent_execution_id).toBe(id);
  });
});
