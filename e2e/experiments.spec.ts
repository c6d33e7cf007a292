import { expect, test } from "@playwright/test";
import { checkScreen, signIn } from "./helpers";

// Experiments from the dashboard: a dataset collected from reviewed runs (the reviewer's edit is
// the expected output), a variant that rewrites a task, an experiment of both, its matrix, and a
// row's two outputs side by side as a word diff.
const TOKEN = { authorization: "Bearer e2e-org-token-0123456789abcdef" };

test("dataset from runs, a variant, an experiment: the matrix and a diff", async ({
  page,
  request,
}, info) => {
  test.setTimeout(180_000);
  // Two reviewed runs of the "review" crew, through the API as a reviewer's tool would.
  const subjects = [`herons ${Date.now().toString(36)}`, `otters ${Date.now().toString(36)}`];
  for (const subject of subjects) {
    const k = await request.post("/api/crews/review/kickoff", {
      headers: TOKEN,
      data: { inputs: { subject } },
    });
    const id = (await k.json()).kickoff_id as string;
    for (const task of ["draft", "polish"]) {
      await expect
        .poll(
          async () =>
            (await (await request.get(`/api/crews/review/status/${id}`, { headers: TOKEN })).json())
              .pending_human_input?.task_id,
          { timeout: 60_000 },
        )
        .toBe(task);
      const r = await request.post("/api/crews/review/resume", {
        headers: TOKEN,
        data: {
          execution_id: id,
          task_id: task,
          human_feedback: "Fine.",
          is_approve: true,
          ...(task === "polish" ? { edited_output: `A polished paragraph about ${subject}.` } : {}),
        },
      });
      expect(r.status()).toBe(200);
    }
    await expect
      .poll(
        async () =>
          (await (await request.get(`/api/crews/review/status/${id}`, { headers: TOKEN })).json())
            .status,
        { timeout: 60_000 },
      )
      .toBe("completed");
  }

  await signIn(page);
  await page.goto("/crews/review");
  await page.getByRole("link", { name: "Experiments" }).click();
  await expect(page.getByRole("heading", { name: "Experiments", level: 1 })).toBeVisible();
  await checkScreen(page, info, "experiments-empty");

  // A dataset, then the two runs added to it.
  const name = `Reviewed ${Date.now().toString(36)}`;
  await page.getByRole("button", { name: "New dataset" }).click();
  const create = page.getByRole("dialog", { name: "New dataset" });
  await create.getByRole("textbox", { name: "Name" }).fill(name);
  await create.getByRole("button", { name: "Create the dataset" }).click();
  await expect(create).toBeHidden();
  const datasets = page.getByRole("region", { name: "Datasets" });
  const row = datasets.getByRole("listitem").filter({ hasText: name });
  await row.getByRole("button", { name: "Add runs" }).click();
  const collect = page.getByRole("dialog", { name: `Add runs to “${name}”` });
  for (const subject of subjects) await collect.getByRole("checkbox", { name: subject }).check();
  await checkScreen(page, info, "collect-runs");
  await collect.getByRole("button", { name: "Add to dataset" }).click();
  await expect(collect).toBeHidden();
  await expect(row).toContainText("2 rows");
  await row.getByRole("button", { name, exact: true }).click();
  await expect(row).toContainText("expected: draft, polish (approved by a reviewer)");

  // A variant: the polish task asks for one sentence.
  await page.getByRole("button", { name: "New variant" }).click();
  const variant = page.getByRole("dialog", { name: "New variant" });
  const variantName = `one sentence ${Date.now().toString(36)}`;
  await variant.getByRole("textbox", { name: "Name" }).fill(variantName);
  await variant.getByRole("combobox", { name: "Task" }).selectOption("polish");
  await variant
    .getByRole("textbox", { name: "Description" })
    .fill("Polish the draft about {subject} into one sentence");
  await checkScreen(page, info, "variant-dialog");
  await variant.getByRole("button", { name: "Save the variant" }).click();
  await expect(variant).toBeHidden();
  await expect(page.getByRole("region", { name: "Variants" })).toContainText("polish: description");

  // The experiment: both, once per row, scored against the approved outputs.
  await page.getByRole("button", { name: "New experiment" }).click();
  const start = page.getByRole("dialog", { name: "New experiment" });
  await start
    .getByRole("combobox", { name: "Dataset" })
    .selectOption({ label: `${name} (2 rows)` });
  await start.getByRole("checkbox", { name: variantName }).check();
  await start.getByRole("spinbutton", { name: "Repeats" }).fill("1");
  await start.getByRole("combobox", { name: "Output scored" }).selectOption("polish");
  await expect(start).toContainText("4 runs");
  await checkScreen(page, info, "experiment-dialog");
  await start.getByRole("button", { name: "Start the experiment" }).click();
  await expect(page).toHaveURL(/\/experiments\/[0-9a-f-]{36}$/);
  await expect(page.getByText("Completed", { exact: true })).toBeVisible({ timeout: 90_000 });
  const matrix = page.getByRole("region", { name: "Comparison of variants" });
  await expect(matrix.getByRole("columnheader", { name: /current/ })).toContainText("Baseline");
  await expect(matrix.getByRole("row", { name: /similarity/ })).toContainText("n 2");
  await checkScreen(page, info, "experiment-matrix");

  // A row's outputs side by side, and its scores with their reasons.
  const rows = page.getByRole("region", { name: "Rows of the dataset" });
  await rows.getByRole("button").first().click();
  await expect(page.getByText(/added · .* removed|The two outputs are the same\./)).toBeVisible();
  await expect(page.getByText("word overlap (F1) with the expected output").first()).toBeVisible();
  await checkScreen(page, info, "experiment-diff");
  // Any task's output, not only the final one: the drafts, which the variant did not change.
  await page.getByRole("combobox", { name: "Output" }).selectOption("draft");
  await expect(page.getByText("The two outputs are the same.")).toBeVisible();

  // Picking the variant as the baseline moves the distances onto it.
  await matrix.getByRole("button", { name: "Pick as baseline" }).click();
  await expect(matrix.getByRole("columnheader", { name: new RegExp(variantName) })).toContainText(
    "Baseline",
  );
});
