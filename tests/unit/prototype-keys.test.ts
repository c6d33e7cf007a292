import { beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import { KickoffRequestSchema } from "@/lib/contract/crew";
import { ExperimentCreateSchema } from "@/lib/contract/experiments";
import { readAgentLlm } from "@/lib/crew/agent-llm";
import { loadCrews } from "@/lib/crew/load-crews";
import type { CrewDef } from "@/lib/crew/schema";
import { fromWebhook } from "@/lib/deployments/translate";
import { AppError } from "@/lib/errors";
import { createExperiment } from "@/lib/experiments/create-experiment";
import { createDataset } from "@/lib/experiments/datasets";
import { createVariant } from "@/lib/experiments/variants";
import { parseModelRef } from "@/lib/llm/model-ref";
import { findProvider } from "@/lib/llm/providers";
import { contentTypeFor } from "@/lib/outputs/output-file";
import { normalizeModelId } from "@/lib/run-model/pricing";
import { createExecution } from "@/lib/runs/create-execution";
import { rerunExecution } from "@/lib/runs/rerun-execution";
import { decodeEntities } from "@/lib/tools/builtin/html-entities";
import { validateFormula } from "@/lib/tracker/filter";
import { embeddedDbForFile } from "../support/embedded-db";
import { FIXTURE_CREWS } from "../support/harness";

// A provider named after a property every object inherits (`__proto__`, `constructor`…) is an
// unknown provider like any other: a 422 naming the field, never a lookup on Object.prototype.
const HOSTILE = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"];
const file = embeddedDbForFile("prototype-keys");
const org: Principal = { kind: "org", tokenId: null };
let brief: CrewDef;
beforeAll(() => {
  brief = loadCrews(FIXTURE_CREWS).crews.get("brief") as CrewDef;
});

async function refusal(work: Promise<unknown>) {
  const err = await work.then(
    () => new Error("expected a refusal"),
    (e: unknown) => e,
  );
  if (!(err instanceof AppError)) throw err;
  return {
    status: err.status,
    paths: (err.details.errors as { path: string }[]).map((e) => e.path),
  };
}

describe.each(HOSTILE)("the provider '%s'", (name) => {
  it("is unknown to the model parser and the provider table", () => {
    expect(findProvider(name, {})).toBeUndefined();
    expect(parseModelRef(`${name}/x`, {}).error).toContain(
      `unknown provider '${name.toLowerCase()}'`,
    );
    expect(readAgentLlm(`${name}/x`, {}).error).toContain("unknown provider");
    expect(readAgentLlm({ model: "x", provider: name, api_key: "k" }, {}).error).toContain(
      "unknown provider",
    );
    expect(normalizeModelId(`${name}/x`)).toBe(`${name.toLowerCase()}/x`);
  });

  it("is a 422 on a saved variant's agent model and manager model", async () => {
    const agent = await refusal(
      createVariant(file.db, brief, org, {
        name: `v-${name}`,
        changes: { agents: { researcher: { llm: `${name}/x` } } },
      }),
    );
    expect(agent).toEqual({ status: 422, paths: ["changes.agents.researcher.llm"] });
    const manager = await refusal(
      createVariant(file.db, brief, org, {
        name: `m-${name}`,
        changes: { process: "hierarchical", manager_llm: `${name}/x` },
      }),
    );
    expect(manager).toMatchObject({ status: 422, paths: ["changes.manager_llm"] });
  });

  it("is a 422 on an inline variant and on a judge of an experiment", async () => {
    await createDataset(file.db, "brief", org, { name: `d-${name}` }, [
      { inputs: { topic: "tides", audience: "kids" }, expected: {} },
    ]);
    const body = (over: object) =>
      ExperimentCreateSchema.parse({
        name: "e",
        dataset: `d-${name}`,
        variants: ["current"],
        reviews: "wait",
        ...over,
      });
    const scope = { crew: "brief", owner: null };
    const inline = await refusal(
      createExperiment(
        file.db,
        brief,
        org,
        scope,
        body({
          variants: [
            "current",
            { name: "hostile", changes: { agents: { researcher: { llm: `${name}/x` } } } },
          ],
        }),
      ),
    );
    expect(inline).toEqual({ status: 422, paths: ["variants.1.changes.agents.researcher.llm"] });
    const judge = await refusal(
      createExperiment(
        file.db,
        brief,
        org,
        scope,
        body({ scorers: [{ type: "judge", model: `${name}/x` }] }),
      ),
    );
    expect(judge).toEqual({ status: 422, paths: ["scorers.0.model"] });
  });

  it("is a 422 on a re-run's models", async () => {
    const request = KickoffRequestSchema.parse({ inputs: { topic: "tides", audience: "kids" } });
    const originId = await createExecution({ db: file.db, crew: brief, principal: org, request });
    const rerun = await refusal(
      rerunExecution({
        db: file.db,
        crew: brief,
        principal: org,
        originId,
        request,
        models: { researcher: `${name}/x` },
      }),
    );
    expect(rerun).toEqual({ status: 422, paths: ["models.researcher"] });
  });
});

// Other tables keyed by outside text: a fetched page's entities, a remote deployment's status, an
// output file's extension, a tracker filter's field.
describe("tables keyed by outside text", () => {
  it("leaves an entity named after an inherited property as written", () => {
    const text = "&constructor; &toString; &valueOf &hasOwnProperty; &amp;";
    expect(decodeEntities(text)).toBe("&constructor; &toString; &valueOf &hasOwnProperty; &");
  });

  it("serves an output named after an inherited property as plain text", () => {
    expect(contentTypeFor("notes.constructor")).toBe("text/plain; charset=utf-8");
  });

  it("refuses a tracker filter on a field named after an inherited property", () => {
    for (const field of ["constructor", "__proto__", "toString"]) {
      const formula = {
        operator: "OR",
        conditions: [
          { operator: "AND", conditions: [{ field, operator: "$stringContains", value: "x" }] },
        ],
      };
      expect(() => validateFormula(formula, { title: "string" })).toThrow(
        `Unknown filter field '${field}'`,
      );
    }
  });

  it("reads a remote's unknown final status as a plain crew event", () => {
    for (const status of ["constructor", "__proto__", "toString"])
      expect(fromWebhook("crew", { sequence: 1, event: "crew", status }, null)).toMatchObject({
        key: "seq:1",
        type: "remote_crew",
      });
  });
});
