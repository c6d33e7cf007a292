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

  // The origin lists it, with what changed.
  await detail.getByRole("link", { name: origin.slice(0, 8) }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${origin}$`));
  const lineage = page.getByRole("region", { name: "Re-runs" });
  await expect(lineage.getByRole("link", { name: again.slice(0, 8) })).toBeVisible();
  await expect(lineage).toContainText("changed topic");
});
