import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import { ExperimentCreateSchema } from "@/lib/contract/experiments";
import { loadCrews } from "@/lib/crew/load-crews";
import type { CrewDef } from "@/lib/crew/schema";
import type { Db } from "@/lib/db/types";
import { advanceExperiment, endEarly } from "@/lib/experiments/advance";
import { claimExperiments } from "@/lib/experiments/claim";
import { createExperiment } from "@/lib/experiments/create-experiment";
import { createDataset } from "@/lib/experiments/datasets";
import { DB_KINDS, openTestDb } from "../support/both-dbs";
import { FIXTURE_CREWS } from "../support/harness";
import { queryAs } from "../support/rows";

// Stopping an experiment stops its runs going, durably: the process may end the moment the
// experiment's end is committed, and no run of it may be left going for that.

const org: Principal = { kind: "org", tokenId: null };

/** The database as a process that dies as soon as its first transaction commits sees it. */
function diesAfterCommit(db: Db): Db {
  let dead = false;
  const died = () => Promise.reject(new Error("the process died"));
  return new Proxy(db, {
    get(target, key, receiver) {
      if (key === "tx")
        return async <T>(fn: Parameters<Db["tx"]>[0]) => {
          if (dead) return died();
          const done = (await target.tx(fn)) as T;
          dead = true;
          return done;
        };
      if (key === "query") return dead ? died : target.query.bind(target);
      return Reflect.get(target, key, receiver);
    },
  });
}

describe.each(DB_KINDS)("stopping an experiment, on the %s database", (kind) => {
  let db: Db;
  let close: () => Promise<void>;
  let brief: CrewDef;
  beforeAll(async () => {
    ({ db, close } = await openTestDb(kind));
    brief = loadCrews(FIXTURE_CREWS).crews.get("brief") as CrewDef;
  });
  afterAll(() => close());

  it("stops its running cells' runs in the commit that ends it", async () => {
    const dataset = await createDataset(db, "brief", org, { name: "two" }, [
      { inputs: { topic: "tides", audience: "kids" }, expected: {} },
      { inputs: { topic: "ferns", audience: "cooks" }, expected: {} },
    ]);
    const id = await createExperiment(
      db,
      brief,
      org,
      { crew: "brief", owner: null },
      ExperimentCreateSchema.parse({
        name: "stopped early",
        dataset: dataset.id,
        variants: ["current"],
        repeats: 2,
        parallelism: 2,
      }),
    );
    const [exp] = await claimExperiments(db, "stop-test", 60_000);
    if (!exp) throw new Error("the experiment was not claimed");
    await advanceExperiment(db, exp); // two cells started: their runs queued (no worker here)

    await endEarly(diesAfterCommit(db), id, "stopped", "Stopped by a person.", "a person");

    const { rows } = await queryAs<{ cell: string; status: string; error: string | null }>(
      db,
      `SELECT c.status AS cell, e.status, e.error, e.stopped_by FROM experiment_cells c
         JOIN executions e ON e.id = c.execution_id WHERE c.experiment_id = $1 ORDER BY c.n`,
      [id],
    );
    expect(rows).toEqual([
      {
        cell: "skipped",
        status: "cancelled",
        error: "Stopped by a person.",
        stopped_by: "a person",
      },
      {
        cell: "skipped",
        status: "cancelled",
        error: "Stopped by a person.",
        stopped_by: "a person",
      },
    ]);
    const { rows: exps } = await queryAs<{ status: string }>(
      db,
      "SELECT status FROM experiments WHERE id = $1",
      [id],
    );
    expect(exps[0]?.status).toBe("stopped");
  });
});
