import { beforeAll, describe, expect, inject, it } from "vitest";
import { call, crewClient, expectProblem, type Json } from "../support/api";
import { TEST_ADMIN, TEST_CREW_TOKEN, tokenCli } from "../support/harness";
import { addPerson, adminHeaders } from "../support/people";
import { signIn } from "../support/session";

// Taking access away: sign-out, disabling, removing, password resets and role changes take effect
// on the very next request, for session cookies and personal tokens alike.
const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");
let admin: Record<string, string>;

beforeAll(async () => {
  admin = await adminHeaders(baseUrl);
});

const asCookie = (cookie: string) => ({ cookie, origin: baseUrl });
const change = (id: string, body: unknown, headers = admin) =>
  call(baseUrl, "PATCH", `/api/users/${id}`, { headers, body });
const runsWith = (headers: Record<string, string>) =>
  call(baseUrl, "GET", "/api/runs", { headers });
const userToken = async (email: string) =>
  (await tokenCli(["create", "--user", email], serverEnv)).token as string;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const paused = (s: Json) => s.status === "pending_human_input";

/** Signs out as the dashboard's next-auth endpoint expects (CSRF token and cookie). */
async function signOut(session: string) {
  const csrfRes = await fetch(`${baseUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const csrfCookie = (csrfRes.headers.getSetCookie() ?? []).map((c) => c.split(";")[0]).join("; ");
  const res = await fetch(`${baseUrl}/api/auth/signout`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: `${csrfCookie}; ${session}`,
    },
    body: new URLSearchParams({ csrfToken, callbackUrl: baseUrl }),
  });
  expect(res.status).toBe(302);
  // The browser is told to forget the cookie; an attacker who copied it keeps it.
  expect(res.headers.getSetCookie().join()).toMatch(/authjs\.session-token=;/);
}

describe("sessions end", () => {
  it("a session cookie replayed after sign-out is refused by the API and the dashboard", async () => {
    const p = await addPerson(baseUrl, { email: "leaving@example.com", role: "viewer" });
    const cookie = await signIn(baseUrl, p.email, p.password);
    expect((await runsWith(asCookie(cookie))).status).toBe(200);
    const page = await call(baseUrl, "GET", "/", { headers: { cookie } });
    expect(page.status).toBe(200);

    await signOut(cookie);

    expectProblem(await runsWith(asCookie(cookie)), 401);
    const replayed = await call(baseUrl, "GET", "/", { headers: { cookie } });
    expect(replayed.status).toBe(307);
    expect(replayed.headers.get("location")).toContain("/sign-in");
    expect(replayed.text).not.toContain(p.email);
    // Signing in again works, with a new cookie.
    const again = await signIn(baseUrl, p.email, p.password);
    expect((await runsWith(asCookie(again))).status).toBe(200);
    expectProblem(await runsWith(asCookie(cookie)), 401);
  });

  it("a password reset ends the person's sessions and the old password no longer signs in", async () => {
    const p = await addPerson(baseUrl, { email: "forgetful@example.com", role: "operator" });
    const cookie = await signIn(baseUrl, p.email, p.password);
    expect((await runsWith(asCookie(cookie))).status).toBe(200);

    const r = await change(p.id, { password: "a brand new password" });
    expect(r.status, r.text).toBe(200);
    expect(r.text).not.toContain("brand new");

    expectProblem(await runsWith(asCookie(cookie)), 401);
    await expect(signIn(baseUrl, p.email, p.password)).rejects.toThrow(/sign-in .* failed/);
    const fresh = await signIn(baseUrl, p.email, "a brand new password");
    expect((await runsWith(asCookie(fresh))).status).toBe(200);
  });
});

describe("disabling and removing a person", () => {
  it("a disabled person's cookie and personal token stop working at once; no sign-in", async () => {
    const p = await addPerson(baseUrl, { email: "suspended@example.com", role: "operator" });
    const cookie = await signIn(baseUrl, p.email, p.password);
    const token = await userToken(p.email);
    // Used just before: the token's verdict is in the server's cache.
    expect((await runsWith(bearer(token))).status).toBe(200);
    expect((await runsWith(asCookie(cookie))).status).toBe(200);

    const r = await change(p.id, { disabled: true });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ id: p.id, disabled: true });

    expectProblem(await runsWith(bearer(token)), 401);
    expectProblem(await runsWith(asCookie(cookie)), 401);
    await expect(signIn(baseUrl, p.email, p.password)).rejects.toThrow(/sign-in .* failed/);

    // Enabled again: they may sign in, but what was taken away stays taken away.
    expect((await change(p.id, { disabled: false })).json).toMatchObject({ disabled: false });
    expectProblem(await runsWith(bearer(token)), 401);
    expectProblem(await runsWith(asCookie(cookie)), 401);
    const back = await signIn(baseUrl, p.email, p.password);
    expect((await runsWith(asCookie(back))).status).toBe(200);
  });

  it("a removed person's cookie and token stop working at once; their runs stay", async () => {
    const p = await addPerson(baseUrl, { email: "gone@example.com", role: "operator" });
    const cookie = await signIn(baseUrl, p.email, p.password);
    const token = await userToken(p.email);
    const mine = crewClient(baseUrl, "brief", token);
    const run = await mine.start({ topic: "a", audience: "b" });

    const r = await call(baseUrl, "DELETE", `/api/users/${p.id}`, { headers: admin });
    expect(r.status, r.text).toBe(204);

    expectProblem(await mine.status(run), 401);
    expectProblem(await runsWith(asCookie(cookie)), 401);
    await expect(signIn(baseUrl, p.email, p.password)).rejects.toThrow(/sign-in .* failed/);
    const users = await call(baseUrl, "GET", "/api/users", { headers: admin });
    expect(users.text).not.toContain(p.email);
    expect((await crewClient(baseUrl, "brief", TEST_CREW_TOKEN).status(run)).status).toBe(200);
    expectProblem(await call(baseUrl, "DELETE", `/api/users/${p.id}`, { headers: admin }), 404);
  });
});

describe("a personal token acts with at most its owner's current role", () => {
  it("an operator's token cannot approve a review, just as their session cannot", async () => {
    const p = await addPerson(baseUrl, { email: "op-reviewing@example.com", role: "operator" });
    const cookie = await signIn(baseUrl, p.email, p.password);
    const mine = crewClient(baseUrl, "review", await userToken(p.email));
    const id = await mine.start({ subject: "approve me" });
    await mine.waitFor(id, paused);
    const approve = { execution_id: id, task_id: "draft", human_feedback: "", is_approve: true };

    expectProblem(await mine.resume(approve), 403);
    expectProblem(
      await call(baseUrl, "POST", "/api/crews/review/resume", {
        headers: asCookie(cookie),
        body: approve,
      }),
      403,
    );
    expect((await mine.status(id)).json.status).toBe("pending_human_input");
    expect((await mine.stop(id)).status).toBe(200); // operators may stop their runs
  });

  it("demoted to viewer, the token may read but no longer start, stop or review", async () => {
    const p = await addPerson(baseUrl, { email: "demoted@example.com", role: "reviewer" });
    const mine = crewClient(baseUrl, "review", await userToken(p.email));
    const id = await mine.start({ subject: "before the demotion" });
    await mine.waitFor(id, paused); // the token's verdict, with its role, is now cached

    expect((await change(p.id, { role: "viewer" })).json).toMatchObject({ role: "viewer" });

    expectProblem(await mine.kickoff({ inputs: { subject: "after" } }), 403);
    expectProblem(await mine.stop(id), 403);
    expectProblem(
      await mine.resume({
        execution_id: id,
        task_id: "draft",
        human_feedback: "",
        is_approve: true,
      }),
      403,
    );
    expect((await mine.status(id)).json.status).toBe("pending_human_input");
    expect((await mine.events(id)).status).toBe(200);
    const list = await runsWith(bearer(await userToken(p.email)));
    expect(list.status).toBe(200);
    expect(list.text).toContain(id);

    // Promoted back, the same token does what the role allows again.
    await change(p.id, { role: "reviewer" });
    const ok = await mine.resume({
      execution_id: id,
      task_id: "draft",
      human_feedback: "",
      is_approve: true,
    });
    expect(ok.status, ok.text).toBe(200);
  });
});

describe("the user API", () => {
  it("takes only administrators", async () => {
    const p = await addPerson(baseUrl, { email: "not-admin@example.com", role: "reviewer" });
    const cookie = asCookie(await signIn(baseUrl, p.email, p.password));
    const token = bearer(await userToken(p.email));
    const org = bearer(TEST_CREW_TOKEN);
    for (const headers of [cookie, token, org]) {
      expectProblem(await change(p.id, { role: "admin" }, headers), 403);
      expectProblem(await call(baseUrl, "DELETE", `/api/users/${p.id}`, { headers }), 403);
    }
    expectProblem(await change(p.id, { role: "admin" }, {}), 401);
  });

  it("refuses malformed (400) and empty or out-of-range (422) changes", async () => {
    const p = await addPerson(baseUrl, { email: "validated@example.com", role: "viewer" });
    expectProblem(await change(p.id, "not json"), 400);
    expectProblem(await change(p.id, [1]), 400);
    expectProblem(await change(p.id, { role: 5 }), 400);
    expectProblem(await change(p.id, { disabled: "yes" }), 400);
    expectProblem(await change(p.id, { nickname: "x" }), 400);
    expectProblem(await change(p.id, {}), 422);
    expectProblem(await change(p.id, { role: "owner" }), 422);
    expectProblem(await change(p.id, { password: "short" }), 422);
    expectProblem(await change("00000000-0000-4000-8000-000000000000", { role: "viewer" }), 404);
    expectProblem(await change("not-a-uuid", { role: "viewer" }), 404);
  });
});

describe("there is always an administrator", () => {
  /** Every administrator but the bootstrap one (earlier files add some) becomes a viewer. */
  async function onlyBootstrapAdmin() {
    const { json } = await call(baseUrl, "GET", "/api/users", { headers: admin });
    const me = json.users.find((u: Json) => u.email === TEST_ADMIN.email);
    for (const u of json.users) {
      if (u.role === "admin" && !u.disabled && u.id !== me.id)
        await change(u.id, { role: "viewer" });
    }
    return me.id as string;
  }
  /** The active administrators, as seen by whichever of `sessions` is still one of them. */
  const activeAdmins = async (...sessions: Record<string, string>[]) => {
    for (const headers of [admin, ...sessions]) {
      const r = await call(baseUrl, "GET", "/api/users", { headers });
      if (r.status === 200)
        return r.json.users.filter((u: Json) => u.role === "admin" && !u.disabled) as Json[];
    }
    throw new Error("nobody is an administrator any more");
  };

  it("the last administrator cannot demote, disable or remove themselves", async () => {
    const me = await onlyBootstrapAdmin();
    expectProblem(await change(me, { role: "reviewer" }), 409);
    expectProblem(await change(me, { disabled: true }), 409);
    expectProblem(await call(baseUrl, "DELETE", `/api/users/${me}`, { headers: admin }), 409);
    expect((await activeAdmins()).map((u) => u.id)).toEqual([me]);
    expect((await runsWith(admin)).status).toBe(200); // still signed in
  });

  it("two administrators demoting each other (and themselves) at once leave one", async () => {
    const me = await onlyBootstrapAdmin();
    const other = await addPerson(baseUrl, { email: "rival-admin@example.com", role: "admin" });
    const rival = asCookie(await signIn(baseUrl, other.email, other.password));
    // Several rounds, each a burst of every demotion at once; between rounds the survivor
    // makes the other an administrator again.
    try {
      for (let round = 0; round < 5; round++) {
        const burst = await Promise.all(
          [1, 2, 3, 4].flatMap(() => [
            change(other.id, { role: "viewer" }, admin),
            change(me, { role: "viewer" }, rival),
            change(me, { role: "viewer" }, admin),
            change(other.id, { role: "viewer" }, rival),
          ]),
        );
        for (const r of burst) expect([200, 403, 409], r.text).toContain(r.status);
        expect(burst.some((r) => r.status === 200)).toBe(true);
        const left = await activeAdmins(rival);
        expect(left).toHaveLength(1);
        const survivor = left[0].id === me ? admin : rival;
        const demoted = left[0].id === me ? other.id : me;
        expect((await change(demoted, { role: "admin" }, survivor)).status).toBe(200);
      }
    } finally {
      // Later files sign in as the bootstrap administrator: leave it the administrator.
      await change(me, { role: "admin" }, rival);
      await change(other.id, { role: "viewer" }, admin);
    }
  });
});
