import { describe, expect, it } from "vitest";
import { errors } from "@/lib/errors";
import {
  mapDelivery,
  planRun,
  readableHeaders,
  refusalOf,
  refuse,
} from "@/lib/triggers/delivery-plan";
import type { TriggerRow } from "@/lib/triggers/store";

// What a trigger delivery is refused with, and the run it asks for, decided without a database.

const trigger = (over: Partial<TriggerRow> = {}): TriggerRow => ({
  id: "00000000-0000-4000-8000-000000000001",
  crew: "triage",
  name: "GitHub issues",
  signature: "standard",
  secret_enc: "sealed",
  mapping: { title: "$.issue.title" },
  inputs: { team: "core" },
  concurrency: null,
  paused: false,
  owner_user_id: null,
  concurrency_owner: null,
  created_by: "admin",
  created_at: new Date(0),
  updated_at: new Date(0),
  ...over,
});
const crew = { name: "triage" }; // only passed through
const json = (v: unknown) => Buffer.from(JSON.stringify(v));

describe("planRun", () => {
  it("maps the payload to inputs, over the trigger's fixed ones", () => {
    expect(planRun(trigger(), crew, json({ issue: { title: "Crash" } }), {})).toEqual({
      crew,
      inputs: { team: "core", title: "Crash" },
      concurrency: null,
    });
  });

  it("reads an empty body as no payload", () => {
    const plan = planRun(trigger({ mapping: {} }), crew, Buffer.alloc(0), {});
    expect(plan).toEqual({ crew, inputs: { team: "core" }, concurrency: null });
  });

  it("refuses a body that is not JSON (400) before a crew that is not loaded (409)", () => {
    const bad = planRun(trigger(), undefined, Buffer.from("{nope"), {});
    expect(bad).toMatchObject({ ok: false, answer: { status: 400, outcome: "invalid" } });
    expect(planRun(trigger(), undefined, json({}), {})).toEqual(
      refuse(409, "refused", "The crew 'triage' is not loaded (removed, or its files are broken)."),
    );
  });

  it("refuses a payload the mapping cannot read (422) with the fields", () => {
    const plan = planRun(trigger({ mapping: { title: "$[" } }), crew, json({}), {});
    expect(plan).toMatchObject({
      ok: false,
      answer: {
        status: 422,
        outcome: "invalid",
        detail: "The payload does not map to the crew's inputs.",
      },
    });
    expect("ok" in plan && plan.answer.errors?.length).toBeTruthy();
  });
});

describe("mapDelivery's concurrency key", () => {
  const keyed = (key: string) => trigger({ concurrency: { key, policy: "enqueue" } });

  it("is the selected value, JSON for a non-string, cut at 200 characters", () => {
    expect(mapDelivery(keyed("$.n"), { n: 7 }, {})).toMatchObject({
      concurrency: { key: "7", policy: "enqueue" },
    });
    expect(mapDelivery(keyed("$.s"), { s: "x".repeat(300) }, {})).toMatchObject({
      concurrency: { key: "x".repeat(200) },
    });
  });

  it("is an error when the expression selects nothing", () => {
    for (const payload of [{}, { k: null }, { k: "" }])
      expect(mapDelivery(keyed("$.k"), payload, {})).toEqual({
        errors: [
          {
            path: "concurrency.key",
            message: "The key's expression selected nothing in this payload.",
          },
        ],
      });
  });
});

describe("refusalOf", () => {
  it("lists the crew's field errors and each missing input as a field to map", () => {
    const err = errors.unprocessable("Inputs are missing.", {
      errors: [{ path: "inputs.n", message: "must be a number" }],
      missing_inputs: ["topic"],
    });
    expect(refusalOf(err)).toEqual(
      refuse(422, "invalid", "Inputs are missing.", [
        { path: "inputs.n", message: "must be a number" },
        {
          path: "inputs.topic",
          message: "required by the crew; map it or give it a fixed value",
        },
      ]),
    );
  });

  it("is 'refused' for a conflict (the key's policy), with no fields when none are named", () => {
    expect(refusalOf(errors.conflict("A run with this key is active."))).toEqual({
      ok: false,
      answer: { status: 409, outcome: "refused", detail: "A run with this key is active." },
    });
  });
});

describe("readableHeaders", () => {
  it("keeps the sender's credentials from the mapping", () => {
    expect(
      readableHeaders({ authorization: "x", cookie: "y", "x-webhook-secret": "z", "x-a": "1" }),
    ).toEqual({ "x-a": "1" });
  });
});
