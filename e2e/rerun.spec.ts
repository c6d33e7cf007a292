import { expect, test } from "@playwright/test";
import { checkScreen, signIn } from "./helpers";

// Re-run with edits: the run's own form, prefilled, one input changed; the new run says where it
// came from, and the origin lists it with what changed.
const auth = { authorization: "Bearer e2e-org-token-0123456789abcdef" };

test("re-run with an edited input: prefilled form, linked both ways", async ({
  page,
  request,
}, info) => {
  const res = await request.post("/api/crews/brief/kickoff", {
    headers: auth,
    data: { inputs: { topic: "tide pools", audience: "children" } },
  });
  expect(res.ok()).toBe(true);
  const origin = (await res.json()).kickoff_id as string;

  await signIn(page);
  await page.goto(`/crews/brief/runs/${origin}`);
  await expect(page.getByTestId("run-status")).toHaveText("Completed", { timeout: 30_000 });

  await page.getByRole("button", { name: "Re-run with edits" }).click();
  const dialog = page.getByRole("dialog", { name: "Re-run with edits" });
  // The form starts from this run's inputs; the models from each agent's own.
  await expect(dialog.getByRole("textbox", { name: "Topic" })).toHaveValue("tide pools");
  await expect(dialog.getByRole("textbox", { name: "Audience" })).toHaveValue("children");
  await expect(dialog.getByRole("group", { name: "Models" })).toContainText("Every agent");
  await expect(dialog.getByLabel("Every agent")).toHaveAttribute("placeholder", /as each agent/);
  await dialog.getByRole("textbox", { name: "Topic" }).fill("rock pools");
  await checkScreen(page, info, "rerun-dialog");

  // A model it cannot use is said on its field; nothing starts.
  await dialog.getByLabel("Every agent").fill("nowhere/nothing");
  await dialog.getByRole("button", { name: "Start the re-run" }).click();
  await expect(dialog.getByText(/nowhere/).first()).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/runs/${origin}$`));
  await dialog.getByLabel("Every agent").fill("");

  await dialog.getByRole("button", { name: "Start the re-run" }).click();
  await expect(page).not.toHaveURL(new RegExp(`/runs/${origin}$`));
  const again = page.url().split("/").at(-1) ?? "";
  await expect(page.getByTestId("run-status")).toHaveText("Completed", { timeout: 30_000 });
  const detail = page.getByTestId("step-detail");
  await expect(detail).toContainText("rock pools");
  await expect(detail).toContainText(`Re-run of ${origin.slice(0, 8)}`);
  await checkScreen(page, info, "rerun-new-run");

  // Compared with its origin: the changed input marked, each task's output diffed.
  await detail.getByRole("link", { name: "Compare with it" }).click();
  await expect(page.getByRole("heading", { name: "Brief: two runs compared" })).toBeVisible();
  const topic = page.getByRole("row", { name: /^topic/ });
  await expect(topic).toContainText("tide pools");
  await expect(topic).toContainText("rock pools");
  await expect(topic.getByRole("rowheader")).toContainText("differs");
  const research = page.getByRole("region", { name: "research" });
  await expect(research).toContainText(/characters added/);
  await checkScreen(page, info, "compare-runs");
  await page.goBack();

  // The origin lists it, with what changed.
  await detail.getByRole("link", { name: origin.slice(0, 8) }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${origin}$`));
  const lineage = page.getByRole("region", { name: "Re-runs" });
  await expect(lineage.getByRole("link", { name: again.slice(0, 8) })).toBeVisible();
  await expect(lineage).toContainText("changed topic");
});

test("fork from task 2 with task 1's output edited: task 1 inherited, not run again", async ({
  page,
  request,
}, info) => {
  const res = await request.post("/api/crews/brief/kickoff", {
    headers: auth,
    data: { inputs: { topic: "lighthouses", audience: "keepers" } },
  });
  expect(res.ok()).toBe(true);
  const origin = (await res.json()).kickoff_id as string;

  await signIn(page);
  await page.goto(`/crews/brief/runs/${origin}`);
  await expect(page.getByTestId("run-status")).toHaveText("Completed", { timeout: 30_000 });
  const tree = page.getByRole("tree", { name: "Tasks and steps on a time axis" });
  await tree.locator('[data-row="task"]').nth(1).click();
  const detail = page.getByTestId("step-detail");
  await detail.getByRole("button", { name: "Fork from here" }).click();
  const dialog = page.getByRole("dialog", { name: "Fork from “write”" });
  const output = dialog.getByLabel("Output of “research”");
  await expect(output).not.toHaveValue("");
  await output.fill("Edited: the oldest lighthouse still lit is in Spain.");
  await expect(dialog.getByRole("button", { name: "Start the fork with the edit" })).toBeVisible();
  await checkScreen(page, info, "fork-dialog");
  await dialog.getByRole("button", { name: "Start the fork with the edit" }).click();

  await expect(page).not.toHaveURL(new RegExp(`/runs/${origin}$`));
  await expect(page.getByTestId("run-status")).toHaveText("Completed", { timeout: 30_000 });
  await expect(page.getByTestId("step-detail")).toContainText(`Fork of ${origin.slice(0, 8)}`);
  // Task 1 was taken, edited, from the origin: one step says so; it never ran here.
  await tree.locator('[data-row="task"]').first().click();
  const inherited = tree.getByRole("treeitem", { name: /Inherited, edited by admin@example\.com/ });
  await expect(inherited).toBeVisible();
  // Its only step (task 2, closed, ran as usual).
  await expect(tree.locator('[data-row="step"]')).toHaveCount(1);
  await inherited.click();
  await expect(page.getByTestId("step-detail")).toContainText("Not run here: taken from");
  await checkScreen(page, info, "fork-new-run");
});

test("re-run selected runs on another model from the runs list; a bad model is said on the field", async ({
  page,
  request,
}) => {
  const res = await request.post("/api/crews/brief/kickoff", {
    headers: auth,
    data: { inputs: { topic: "sea glass", audience: "collectors" } },
  });
  const origin = (await res.json()).kickoff_id as string;
  await signIn(page);
  await page.goto(`/runs?q=${origin.slice(0, 8)}`);
  const rows = page.getByRole("table", { name: "Runs" }).locator("tbody tr");
  await expect(rows).toHaveCount(1);
  await page.getByRole("checkbox", { name: "Select all runs on this page" }).check();
  await page.getByRole("button", { name: "Re-run on a model…" }).click();
  const dialog = page.getByRole("dialog", { name: "Re-run 1 run on another model" });
  await dialog.getByLabel("Model").fill("nowhere/nothing");
  await dialog.getByRole("button", { name: "Re-run 1" }).click();
  await expect(dialog.getByText(/nowhere/).first()).toBeVisible();
  await expect(dialog.getByLabel("Model")).toHaveAttribute("aria-invalid", "true");
  await dialog.getByLabel("Model").fill("offline");
  await dialog.getByRole("button", { name: "Re-run 1" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText("Started 1 run")).toBeVisible();
  const reruns = await request.get(`/api/crews/brief/executions/${origin}/reruns`, {
    headers: auth,
  });
  expect((await reruns.json()).reruns).toHaveLength(1);
});
