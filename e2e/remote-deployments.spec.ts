import { expect, type Page, test } from "@playwright/test";
import {
  type FakeCrewAI,
  holdLastStep,
  startFakeCrewAI,
  successScript,
} from "../tests/support/fake-crewai";
import { FIXTURE_CREWS, type Proc, startServer, tempDir } from "../tests/support/harness";
import { checkScreen, signIn } from "./helpers";

// Crews served elsewhere, from the browser: another Crewdeck on another loopback port (it calls
// back by webhook) and a CrewAI-shaped deployment that only answers /status (polling).
const REMOTE_TOKEN = "remote-e2e-token-0123456789abcdef";
const FAKE_TOKEN = "fake-crewai-e2e-token-0123";
let remote: Proc & { url: string };
let fake: FakeCrewAI;

test.beforeAll(async () => {
  remote = await startServer({
    DATA_DIR: tempDir("e2e-remote"),
    CREWS_DIR: FIXTURE_CREWS,
    CREW_TOKEN: REMOTE_TOKEN,
    OFFLINE_MODEL_DELAY_MS: "150",
    WORKER_POLL_MS: "100",
    WEBHOOK_ALLOWED_NETWORKS: "127.0.0.0/8",
  });
  fake = await startFakeCrewAI({ token: FAKE_TOKEN, script: holdLastStep(successScript(3000)) });
});
test.afterAll(async () => {
  await remote?.kill();
  await fake?.close();
});

async function addDeployment(page: Page, name: string, baseUrl: string, token: string) {
  await page.goto("/settings?tab=deployments");
  const form = page.getByRole("form", { name: "Add a deployment" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Base URL").fill(baseUrl);
  await form.getByLabel("Bearer token").fill(token);
  await form.getByRole("button", { name: "Add deployment" }).click();
}

test("another Crewdeck: add it, start a run from its form, watch it live, review, complete", async ({
  page,
}, info) => {
  await signIn(page);
  await addDeployment(page, "Wrong key", `${remote.url}/api/crews/review`, "not-the-token");
  await expect(
    page.getByRole("alert").filter({ hasText: "refused the token (401)" }),
  ).toBeVisible();

  await addDeployment(page, "Remote review", `${remote.url}/api/crews/review`, REMOTE_TOKEN);
  await expect(
    page.getByRole("status").filter({ hasText: "Connected · inputs: subject" }),
  ).toBeVisible();
  await checkScreen(page, info, "settings-deployments");

  await page.getByRole("link", { name: "Crews", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Crews", level: 1 })).toBeVisible();
  await page.getByRole("link", { name: "Remote review" }).click();
  await page.getByLabel("subject").fill("kelp");
  await page.getByRole("button", { name: "Start run" }).click();
  await expect(page).toHaveURL(/\/crews\/(@|%40)remote-review\/runs\/[0-9a-f-]{36}$/);

  // The remote's steps arrive live (its webhooks), then it waits for our review.
  await expect(page.getByRole("treeitem", { name: /Thought/ }).first()).toBeVisible();
  await expect(page.getByTestId("run-status")).toHaveText("Awaiting review");
  await expect(page.getByRole("region", { name: "Review of draft" })).toBeVisible();
  await checkScreen(page, info, "remote-review-panel");
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("region", { name: "Review of polish" })).toBeVisible();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByTestId("run-status")).toHaveText("Completed");
  await expect(page.getByRole("heading", { name: "Result" })).toBeVisible();

  // The runs list shows it with its deployment.
  await page.goto("/runs?deployment=remote-review");
  await expect(
    page
      .getByRole("table", { name: "Runs" })
      .getByRole("link", { name: "@remote-review", exact: true })
      .first(),
  ).toBeVisible();
});

test("a CrewAI deployment that never calls back: progress and result by polling", async ({
  page,
}, info) => {
  await signIn(page);
  await addDeployment(page, "CrewAI research", fake.url, FAKE_TOKEN);
  await expect(
    page.getByRole("status").filter({ hasText: "Connected · inputs: topic" }),
  ).toBeVisible();
  await page.goto("/crews/@crewai-research");
  await page.getByLabel("topic").fill("otters");
  await page.getByRole("button", { name: "Start run" }).click();
  await expect(page).toHaveURL(/\/crews\/(@|%40)crewai-research\/runs\/[0-9a-f-]{36}$/);
  // The remote stays on its last running step until released: the page shows it live first.
  await expect(page.getByText("Drafting the answer about otters")).toBeVisible();
  fake.release();
  await expect(page.getByTestId("run-status")).toHaveText("Completed", { timeout: 30_000 });
  await expect(page.getByText("Final answer about otters").first()).toBeVisible();
  await checkScreen(page, info, "remote-crewai-completed");
});
