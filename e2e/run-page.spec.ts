import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { checkScreen, signIn } from "./helpers";

// The run page as a trace: the waterfall of a run on the offline model, a step's detail, a stop
// that reads as a decision, a failure in words, and two attempts compared after a send-back.
const TOKEN = "e2e-org-token-0123456789abcdef";
const auth = { authorization: `Bearer ${TOKEN}` };

async function kickoff(request: APIRequestContext, crew: string, inputs: Record<string, string>) {
  const res = await request.post(`/api/crews/${crew}/kickoff`, { headers: auth, data: { inputs } });
  expect(res.ok()).toBe(true);
  return (await res.json()).kickoff_id as string;
}

const tree = (page: Page) => page.getByRole("tree", { name: "Tasks and steps on a time axis" });
const status = (page: Page) => page.getByTestId("run-status");

test("a finished run: its waterfall, a step's detail, the result once", async ({
  page,
  request,
}, info) => {
  await signIn(page);
  const id = await kickoff(request, "three-step", { job: "tidy the shed" });
  await page.goto(`/crews/three-step/runs/${id}`);
  await expect(page.getByRole("heading", { name: "Three steps", level: 1 })).toBeVisible();
  await expect(status(page)).toHaveText("Completed", { timeout: 30_000 });

  // Finished tasks are collapsed to one row each, in order, with their duration.
  const tasks = tree(page).locator('[data-row="task"]');
  await expect(tasks).toHaveCount(3);
  await expect(tasks.nth(0)).toHaveAttribute("aria-expanded", "false");
  await expect(tasks.nth(0)).toContainText("one");

  // Opening a task shows its steps; selecting it again keeps it open (its chevron closes it).
  await tasks.nth(0).click();
  await expect(tasks.nth(0)).toHaveAttribute("aria-expanded", "true");
  await tasks.nth(0).click();
  await expect(tasks.nth(0)).toHaveAttribute("aria-expanded", "true");
  await tasks.nth(0).locator("[data-toggle]").click();
  await expect(tasks.nth(0)).toHaveAttribute("aria-expanded", "false");
  await tasks.nth(0).locator("[data-toggle]").click();
  await expect(tasks.nth(0)).toHaveAttribute("aria-expanded", "true");
  // A tool step's detail has its input and result as JSON.
  await tree(page)
    .getByRole("treeitem", { name: /word_count/ })
    .first()
    .click();
  const detail = page.getByTestId("step-detail");
  await expect(detail.getByRole("heading", { name: "Tool: word_count" })).toBeVisible();
  await expect(detail.getByRole("heading", { name: "Input" })).toBeVisible();
  await expect(detail.getByRole("heading", { name: "Result" })).toBeVisible();
  await expect(detail.getByText("Model")).toBeVisible();

  // The keyboard moves through the rows too.
  await tree(page)
    .getByRole("treeitem", { name: /word_count/ })
    .first()
    .focus();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await expect(detail.getByRole("heading", { name: /Thought|Answer/ })).toBeVisible();

  // The answer as Markdown, and the result shown once.
  await expect(page.getByRole("heading", { name: "Result", level: 2 })).toHaveCount(1);
  // On the offline model the cost says it is free, and why.
  await expect(page.locator("dd").filter({ hasText: /^\$0/ }).first()).toContainText(
    "offline model, no cost",
  );
  await checkScreen(page, info, "run-page-completed");
  // Esc closes the step's detail, back to the run's inputs.
  await page.keyboard.press("Escape");
  await expect(
    page.getByTestId("step-detail").getByRole("heading", { name: "Inputs" }),
  ).toBeVisible();
});

test("a run awaiting review, sent back: attempt 2 beside attempt 1 with the feedback", async ({
  page,
  request,
}, info) => {
  await signIn(page);
  const id = await kickoff(request, "review", { subject: "sea otters" });
  await page.goto(`/crews/review/runs/${id}`);
  await expect(status(page)).toHaveText("Awaiting review", { timeout: 30_000 });
  await expect(tree(page).getByRole("treeitem", { name: /Awaiting review/ })).toBeVisible();
  await checkScreen(page, info, "run-page-review");

  // Sent back through the API, as any reviewer's tool would: the page follows live.
  const feedback = "Mention kelp forests, please.";
  const resume = await request.post("/api/crews/review/resume", {
    headers: auth,
    data: { execution_id: id, task_id: "draft", human_feedback: feedback, is_approve: false },
  });
  expect(resume.status()).toBe(200);
  const compare = page.getByRole("region", { name: "draft: Attempt 1 → Attempt 2" });
  await expect(compare).toBeVisible({ timeout: 30_000 });
  await expect(compare.getByText(`“${feedback}”`)).toBeVisible();
  await expect(compare.getByRole("heading", { name: "Attempt 1", exact: true })).toBeVisible();
  await expect(compare.getByRole("heading", { name: "Attempt 2", exact: true })).toBeVisible();
  // The revised output says what was asked: the diff marks it as added.
  await expect(compare.getByText(/added/).first()).toBeVisible();
  await expect(tree(page).getByRole("treeitem", { name: /Changes requested/ })).toBeVisible();
  await checkScreen(page, info, "run-page-attempts");
});

test("a stopped run reads as stopped, by whom, never as a failure", async ({
  page,
  request,
}, info) => {
  await signIn(page);
  const id = await kickoff(request, "review", { subject: "lighthouses" });
  await page.goto(`/crews/review/runs/${id}`);
  await expect(status(page)).toHaveText("Awaiting review", { timeout: 30_000 });
  await page.getByRole("button", { name: "Stop", exact: true }).click();
  await page.getByRole("button", { name: "Stop run" }).click();
  await expect(status(page)).toHaveText("Stopped");
  const outcome = page.getByTestId("run-outcome");
  await expect(outcome).toContainText("Stopped by admin@example.com");
  await expect(page.getByRole("button", { name: "Stop", exact: true })).toHaveCount(0);
  // Never a red failure (the router's own empty announcer aside).
  await expect(page.getByRole("alert").filter({ hasText: /\S/ })).toHaveCount(0);
  // The task it cut off says so, and ends with the stop, by whom: its review was cut short.
  const task = tree(page).locator('[data-row="task"]').first();
  await expect(task).toContainText("Stopped");
  const stop = tree(page).getByRole("treeitem", { name: /Stopped by admin@example\.com/ });
  await expect(stop).toBeVisible();
  // Said once, by the page: no toast beside it.
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);
  await expect(tree(page).getByRole("treeitem", { name: /Review cut short/ })).toBeVisible();
  await stop.click();
  await expect(page.getByTestId("step-detail")).toContainText(
    "The run was stopped here by admin@example.com",
  );
  await checkScreen(page, info, "run-page-stopped");
});

test("a failed run says why, once, and offers Re-run with the same inputs", async ({
  page,
  request,
}, info) => {
  await signIn(page);
  const failed = await kickoff(request, "failing-model", {});
  await page.goto(`/crews/failing-model/runs/${failed}`);
  await expect(status(page)).toHaveText("Failed", { timeout: 30_000 });
  const alert = page.getByRole("alert").filter({ hasText: "This run failed" });
  await expect(alert).toBeVisible();
  const { error } = await (
    await request.get(`/api/crews/failing-model/status/${failed}`, { headers: auth })
  ).json();
  expect(error).toBeTruthy();
  await expect(alert).toContainText(error);
  await expect(page.getByText(error, { exact: true })).toHaveCount(1); // said once
  await checkScreen(page, info, "run-page-failed");
  await alert.getByRole("button", { name: "Re-run with the same inputs" }).click();
  await expect(page).not.toHaveURL(new RegExp(failed));
  await expect(page).toHaveURL(/\/crews\/failing-model\/runs\/[0-9a-f-]{36}$/);
});
