import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import type { CrewDef } from "@/lib/crew/schema";
import type { Db } from "@/lib/db/types";
import { ORG, userToken } from "../support/principals";
import { queryAs } from "../support/rows";

// Starting a run records who started it; reading one answers the same 404 for every run the
// caller may not see. On a real embedded database, through the functions the routes call.
const FIXTURE_CREWS = path.resolve("tests/fixtures/crews");
let db: Db;
let threeStep: CrewDef;
let trackerCrew: CrewDef;
let createExecution: typeof import("@/lib/runs/create-execution").createExecution;
let getExecutionOrThrow: typeof import("@/lib/runs/get-execution").getExecutionOrThrow;
let mutateExecution: typeof import("@/lib/runs/execution-store").mutateExecution;

const ada = { id: randomUUID(), email: "ada@example.com" };
const bob = { id: randomUUID(), email: "bob@example.com" };
const adaSession: Principal = {
  kind: "session",
  userId: ada.id,
  email: ada.email,
  role: "operator",
};
const labelled = randomUUID();

beforeAll(async () => {
  // No integration token anywhere: not in the environment, and none can be made in DATA_DIR (a
  // folder under a file). A crew whose agents use apps cannot start; the others are untouched.
  delete process.env.SERVICE_PLATFORM_INTEGRATION_TOKEN;
  process.env.DATA_DIR = "/dev/null/crewdeck";
  const { openFreshEmbeddedInMemory } = await import("../support/pglite-template");
  const { loadCrews } = await import("@/lib/crew/load-crews");
  ({ createExecution } = await import("@/lib/runs/create-execution"));
  ({ getExecutionOrThrow } = await import("@/lib/runs/get-execution"));
  ({ mutateExecution } = await import("@/lib/runs/execution-store"));
  db = await openFreshEmbeddedInMemory();
  const crews = loadCrews(FIXTURE_CREWS).crews;
  const pick = (slug: string) => {
    const crew = crews.get(slug);
    if (!crew) throw new Error(`fixture crew ${slug} missing`);
    return crew;
  };
  threeStep = pick("three-step");
  trackerCrew = pick("tracker-crew");
  for (const u of [ada, bob])
    await db.query("INSERT INTO users (id, email, role) VALUES ($1, $2, 'operator')", [
      u.id,
      u.email,
    ]);
  await db.query(
    `INSERT INTO api_tokens (id, kind, user_id, token_hash, display_prefix, label)
     VALUES ($1, 'user', $2, 'hash-1', 'cdu_ab12', 'nightly job')`,
    [labelled, ada.id],
  );
});

afterAll(async () => {
  await db.close();
});

const start = (principal: Principal, crew = threeStep) =>
  createExecution({ db, crew, principal, request: { inputs: { job: "x" }, meta: { ref: 7 } } });

async function stored(id: string) {
  const { rows } = await queryAs<Record<string, unknown>>(
    db,
    `SELECT e.status, e.owner_user_id, e.token_id, e.started_via, e.started_by_name, e.inputs, e.meta,
            q.type, q.data
       FROM executions e JOIN execution_events q ON q.execution_id = e.id AND q.seq = 1
      WHERE e.id = $1`,
    [id],
  );
  return rows[0];
}

describe("starting a run", () => {
  it("records who started it: a signed-in person, a labelled token, the organization token", async () => {
    expect(await stored(await start(adaSession))).toMatchObject({
      status: "queued",
      owner_user_id: ada.id,
      token_id: null,
      started_via: "dashboard",
      started_by_name: ada.email,
    });
    const token: Principal = {
      kind: "user",
      tokenId: labelled,
      userId: ada.id,
      email: ada.email,
      role: "operator",
    };
    expect(await stored(await start(token))).toMatchObject({
      owner_user_id: ada.id,
      token_id: labelled,
      started_via: "api",
      started_by_name: "nightly job",
    });
    expect(await stored(await start(ORG))).toMatchObject({
      owner_user_id: null,
      token_id: null,
      started_via: "api",
      started_by_name: "CREW_TOKEN",
    });
  });

  it("queues it with its first event, naming the crew, its inputs and how many tasks", async () => {
    const row = await stored(await start(ORG));
    expect(row).toMatchObject({ inputs: { job: "x" }, meta: { ref: 7 }, type: "execution_queued" });
    expect(row?.data).toEqual({
      crew: "three-step",
      inputs: { job: "x" },
      total_tasks: threeStep.tasks.length,
    });
  });

  it("refuses a crew whose agents use apps while no integration token can be had, and only it", async () => {
    expect(trackerCrew.agents.some((a) => a.apps.length)).toBe(true);
    const refused = createExecution({
      db,
      crew: trackerCrew,
      principal: ORG,
      request: { inputs: {} },
    });
    await expect(refused).rejects.toMatchObject({
      status: 422,
      message: expect.stringContaining("SERVICE_PLATFORM_INTEGRATION_TOKEN"),
    });
    const { rows } = await queryAs<{ n: number }>(
      db,
      "SELECT count(*)::int AS n FROM executions WHERE crew = 'tracker-crew'",
    );
    expect(rows[0]?.n).toBe(0);
    // One agent with apps is enough, beside others without.
    const [withApps] = trackerCrew.agents;
    if (!withApps) throw new Error("tracker-crew has no agent");
    const mixed = { ...trackerCrew, agents: [{ ...withApps, id: "plain", apps: [] }, withApps] };
    await expect(
      createExecution({ db, crew: mixed, principal: ORG, request: { inputs: {} } }),
    ).rejects.toMatchObject({
      status: 422,
      message: expect.stringContaining("SERVICE_PLATFORM_INTEGRATION_TOKEN"),
    });
    // A crew without apps starts as usual on the same machine.
    expect((await stored(await start(ORG)))?.status).toBe("queued");
  });
});

describe("reading a run", () => {
  const read = (principal: Principal, id: string, crew = "three-step") =>
    getExecutionOrThrow({ db, crew, id, principal });
  const notFound = { status: 404 };

  it("shows a run to its owner, to sessions and to the organization token", async () => {
    const id = await start(userToken(ada.id, ada.email));
    for (const who of [userToken(ada.id, ada.email), adaSession, ORG])
      expect((await read(who, id)).id).toBe(id);
    // A session sees every run, whoever started it (roles decide what it may do with them).
    const bobSession: Principal = { ...adaSession, userId: bob.id, email: bob.email };
    expect((await read(bobSession, id)).id).toBe(id);
  });

  it("answers the same 404 for another person's run, another crew's, an unknown id and a non-UUID", async () => {
    const id = await start(userToken(ada.id, ada.email));
    await expect(read(userToken(bob.id, bob.email), id)).rejects.toMatchObject(notFound);
    await expect(read(ORG, id, "brief")).rejects.toMatchObject(notFound);
    await expect(read(ORG, randomUUID())).rejects.toMatchObject(notFound);
    // Not a database error (invalid input syntax for type uuid): never sent to the database.
    await expect(read(ORG, "not-a-uuid")).rejects.toMatchObject(notFound);
    await expect(read(ORG, `${id}'--`)).rejects.toMatchObject(notFound);
  });

  it("reads an upper-case id as the same run, and sees its changes", async () => {
    const id = await start(ORG);
    const upper = id.toUpperCase();
    expect(await read(ORG, upper)).toMatchObject({ id, status: "queued" });
    // A change invalidates the cached copy by the stored (lower-case) id: the next read of the
    // upper-case spelling must not be served the copy from before it.
    await db.tx((q) => mutateExecution(q, { id }, () => ({ patch: { status: "running" } })));
    await expect.poll(async () => (await read(ORG, upper)).status).toBe("running");
  });
});
