import { type APIRequestContext, expect, test } from "@playwright/test";
import { checkScreen, signIn } from "./helpers";

// A CrewAI Flow in the dashboard: its graph on the crew page before a run, then on the run page
// with the branch taken lit; a nested crew's review and the flow's sign-off, whose outcome the
// reviewer picks from buttons; a method opens its output and its nested run.
const TOKEN = "e2e-org-token-0123456789abcdef";
const auth = { authorization: `Bearer ${TOKEN}` };

async function kickoff(request: APIRequestContext) {
  const res = await request.post("/api/crews/release-flow/kickoff", {
    headers: auth,
    data: { inputs: { product: "Deck", changes: ["fix login", "add export", "fix typo"] } },
  });
  expect(res.ok()).toBe(true);
  return (await res.json()).kickoff_id as string;
}

test("a flow's graph, its nested review, and a sign-off that picks the outcome", async ({
  page,
  request,
}, info) => {
  test.setTimeout(240_000);
  await signIn(page);
  await page.goto("/crews/release-flow");
  const graph = page.getByTestId("flow-graph");
  await expect(graph.getByRole("button", { name: /^classify: expression/ })).toBeVisible();
  await checkScreen(page, info, "flow-crew-page");

  const id = await kickoff(request);
  await page.goto(`/crews/release-flow/runs/${id}`);
  await expect(page.getByRole("heading", { name: "ReleaseNotesFlow", level: 1 })).toBeVisible();
  // The nested crew's task waits for review, on the flow's page.
  const notes = page.getByRole("region", { name: "Review of notes" });
  await expect(notes).toBeVisible({ timeout: 60_000 });
  await expect(graph.getByRole("button", { name: /^draft: crew, running/ })).toBeVisible();
  await notes.getByRole("button", { name: "Approve" }).click();

  // The sign-off: the method's question, and one button per outcome.
  const signOff = page.getByRole("region", { name: "Feedback on approve" });
  await expect(signOff).toBeVisible({ timeout: 60_000 });
  await expect(signOff.getByText("Publish these notes?")).toBeVisible();
  await expect(graph.getByRole("button", { name: /^approve: expression, waiting/ })).toBeVisible();
  await checkScreen(page, info, "flow-run-sign-off");
  await signOff.getByRole("button", { name: /^publish/ }).click();

  await expect(page.getByTestId("run-status")).toHaveText("Completed", { timeout: 60_000 });
  await expect(
    graph.getByRole("button", { name: /^publish_notes: expression, ran/ }),
  ).toBeVisible();
  await expect(
    graph.getByRole("button", { name: /^rework: expression, did not run/ }),
  ).toBeVisible();
  // A method opens its output, and its nested run's trace.
  await graph.getByRole("button", { name: /^draft: crew/ }).click();
  const detail = page.getByTestId("flow-method-detail");
  await expect(detail.getByRole("link", { name: "Open its crew run's trace" })).toBeVisible();
  await checkScreen(page, info, "flow-run-completed");
  await detail.getByRole("link", { name: "Open its crew run's trace" }).click();
  await expect(page).toHaveURL(/\/crews\/release-flow\/runs\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("run-status")).toHaveText("Completed");
});
