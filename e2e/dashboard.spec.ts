import { expect, test } from "@playwright/test";
import { checkScreen, signIn, signOut } from "./helpers";

// The rest of a team's day: the overview, the runs table, the inbox, tokens, people and roles.
const VIEWER = { email: "viewer@example.com", password: "viewer password 1" };

test("overview, crews, runs filter and inbox", async ({ page, request }, info) => {
  await signIn(page);
  await checkScreen(page, info, "overview");

  // Two runs of different crews, started through the API with an organization token.
  const token = "e2e-org-token-0123456789abcdef";
  const start = async (crew: string, inputs: Record<string, string>) =>
    (
      await (
        await request.post(`/api/crews/${crew}/kickoff`, {
          headers: { authorization: `Bearer ${token}` },
          data: { inputs },
        })
      ).json()
    ).kickoff_id as string;
  const briefId = await start("brief", { topic: "lighthouses", audience: "keepers" });
  await start("review", { subject: "bridges" });

  await page.getByRole("link", { name: "Crews", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Crews", level: 1 })).toBeVisible();
  await checkScreen(page, info, "crews");

  await page.getByRole("link", { name: "Runs", exact: true }).click();
  await expect(page.getByRole("table", { name: "Runs" })).toBeVisible();
  await page.getByLabel("Crew", { exact: true }).selectOption("brief");
  const rows = page.getByRole("table", { name: "Runs" }).locator("tbody tr");
  await expect(page).toHaveURL(/crew=brief/);
  // Until the filtered page arrives the previous rows stay on screen: wait for it.
  await expect
    .poll(async () => [...new Set(await rows.locator("td:nth-child(4)").allInnerTexts())])
    .toEqual(["Brief"]);
  // Search applies as you type.
  await page.getByLabel("Search", { exact: true }).fill(briefId.slice(0, 8));
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(briefId.slice(0, 8));
  // Live: the status moves to completed without a reload.
  await expect(rows.first().locator("[data-status]")).toHaveText("Completed");
  // The search's own answer, not the rows of an earlier filter kept on screen (dimmed) while it
  // loads: with one brief run they show the same row, and the dimmed one fails the contrast
  // check. The search is typed faster than it is debounced: wait for the whole term in the URL,
  // then for its page.
  await expect(page).toHaveURL(new RegExp(`q=${briefId.slice(0, 8)}`));
  await expect(page.locator('[data-stale="true"]')).toHaveCount(0);
  await checkScreen(page, info, "runs");

  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: /^Inbox/ })
    .click();
  const queue = page.getByRole("navigation", { name: "Review queue" });
  await queue.getByRole("link").filter({ hasText: "bridges" }).click();
  await expect(page.getByLabel("Feedback")).toBeVisible();
  await checkScreen(page, info, "inbox");
});

test("tokens: created, shown once, used, revoked", async ({ page, request }, info) => {
  await signIn(page);
  await page.getByRole("link", { name: "Settings" }).click();
  await page.getByLabel("Label", { exact: true }).fill("e2e");
  await page.getByRole("button", { name: "Create token" }).click();
  const token = (await page.getByTestId("new-token").textContent()) ?? "";
  expect(token).toMatch(/^cdo_/);
  const auth = { authorization: `Bearer ${token}` };
  expect((await request.get("/api/crews/brief/inputs", { headers: auth })).status()).toBe(200);
  await checkScreen(page, info, "settings");
  await page.reload();
  await expect(page.getByTestId("new-token")).toHaveCount(0); // shown once
  // Revoking asks first.
  await page.getByRole("button", { name: `Revoke ${token.slice(0, 10)}…` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke token" }).click();
  await expect(page.getByRole("table", { name: "API tokens" })).toContainText("Revoked");
  expect((await request.get("/api/crews/brief/inputs", { headers: auth })).status()).toBe(401);

  // The tracker answers.
  await page.getByRole("tab", { name: "Integrations" }).click();
  await page.getByRole("button", { name: "Test connection" }).click();
  await expect(page.getByText("Connected (embedded tracker): teams ENG, OPS")).toBeVisible();

  // Integration tokens for agent runtimes: a read-only one may search, not change.
  await page.getByLabel("Access").selectOption("read");
  await page.getByRole("button", { name: "Create integration token" }).click();
  const integration = (await page.getByTestId("new-integration-token").textContent()) ?? "";
  expect(integration).toMatch(/^cdi_/);
  const headers = { authorization: `Bearer ${integration}` };
  const search = await request.post("/api/integrations/actions/search_teams/execute", {
    headers,
    data: { integration: {} },
  });
  expect(search.status()).toBe(200);
  const teamId = (await search.json()).teams[0].id;
  const create = await request.post("/api/integrations/actions/create_issue/execute", {
    headers,
    data: { integration: { teamId, title: "nope" } },
  });
  expect(create.status()).toBe(403);
});

test("a viewer sees no Start or Approve, and the server refuses them", async ({ page }, info) => {
  await signIn(page);
  await page.getByRole("link", { name: "Settings" }).click();
  await page.getByRole("tab", { name: "People" }).click();
  await page.getByLabel("New user's email").fill(VIEWER.email);
  await page.getByLabel("First password").fill(VIEWER.password);
  await page.getByLabel("Role", { exact: true }).selectOption("viewer");
  await page.getByRole("button", { name: "Add user" }).click();
  await expect(page.getByRole("table", { name: "Users" })).toContainText(VIEWER.email);
  await signOut(page);

  await signIn(page, VIEWER);
  await page.getByRole("link", { name: "Crews", exact: true }).click();
  // The overview's recent runs are named as crews are: wait for the crews page itself.
  await expect(page.getByRole("heading", { name: "Crews", level: 1 })).toBeVisible();
  await page.getByRole("link", { name: "Reviewed draft" }).click();
  await expect(page.getByText("can watch runs but not start them")).toBeVisible();
  await expect(page.getByRole("button", { name: "Start run" })).toHaveCount(0);
  await checkScreen(page, info, "crew-as-viewer");
  // Nothing to select on the runs list: a viewer cannot act on runs.
  const started = await page.request.post("/api/crews/three-step/kickoff", {
    headers: { authorization: "Bearer e2e-org-token-0123456789abcdef" },
    data: { inputs: { job: "viewer's list" } },
  });
  const run = (await started.json()).kickoff_id as string;
  await page.getByRole("link", { name: "Runs", exact: true }).click();
  await expect(page.locator(`[data-run="${run}"]`).first()).toBeVisible();
  await expect(page.getByRole("checkbox")).toHaveCount(0);

  // Crafted requests from the viewer's own session are refused on the server.
  const status = await page.evaluate(async () => {
    const kickoff = await fetch("/api/crews/review/kickoff", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ inputs: { subject: "x" } }),
    });
    const resume = await fetch("/api/crews/review/resume", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        execution_id: "00000000-0000-4000-8000-000000000000",
        task_id: "draft",
        human_feedback: "",
        is_approve: true,
      }),
    });
    const users = await fetch("/api/users");
    return [kickoff.status, resume.status, users.status];
  });
  expect(status).toEqual([403, 403, 403]);

  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: /^Inbox/ })
    .click();
  await expect(page.getByRole("heading", { name: "Inbox" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Review" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);
});

test("works on a 390 px phone screen and the sign-in page is accessible", async ({
  page,
}, info) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/sign-in");
  await checkScreen(page, info, "sign-in-390");
  await signIn(page);
  for (const [name, path] of [
    ["overview-390", "/"],
    ["runs-390", "/runs"],
    ["crew-390", "/crews/review"],
    ["settings-390", "/settings"],
  ] as const) {
    await page.goto(path);
    await expect(page.locator("h1")).toBeVisible();
    // Nothing wider than the screen: no sideways scrolling of the page itself.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await checkScreen(page, info, name);
  }
});
