import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { checkScreen, signIn, signOut } from "./helpers";

// The middle roles as they use the dashboard: an operator starts a run that waits for review and
// may stop it, but is not offered the decision; a reviewer decides it from the inbox. (The admin
// and viewer flows are in access.spec.ts and dashboard.spec.ts; the server's refusals per role in
// tests/http/authorization-matrix.test.ts.)
const TOKEN = "e2e-org-token-0123456789abcdef";
const OPERATOR = { email: "operator@example.com", password: "operator password 12" };
const REVIEWER = { email: "reviewer@example.com", password: "reviewer password 12" };

async function addPerson(page: Page, person: typeof OPERATOR, role: string) {
  await page.goto("/settings?tab=people");
  // The list is fetched by the page's script: once it shows, the form's handlers are attached
  // (a click before hydration would be a plain form submission).
  await expect(page.getByRole("table", { name: "Users" })).toContainText("admin@example.com");
  await page.getByLabel("New user's email").fill(person.email);
  await page.getByLabel("First password").fill(person.password);
  await page.getByLabel("Role", { exact: true }).selectOption(role);
  await page.getByRole("button", { name: "Add user" }).click();
  await expect(page.getByRole("table", { name: "Users" })).toContainText(person.email);
}

async function pendingTask(request: APIRequestContext, id: string) {
  const res = await request.get(`/api/crews/review/status/${id}`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  const body = (await res.json()) as { pending_human_input: { task_id: string } | null };
  return body.pending_human_input?.task_id ?? null;
}

test("an operator starts a run and is not offered the review; a reviewer decides it", async ({
  page,
  request,
}, info) => {
  await signIn(page);
  await addPerson(page, OPERATOR, "operator");
  await addPerson(page, REVIEWER, "reviewer");
  await signOut(page);

  // The operator: starts a run from the form; it waits for a reviewer, not for them.
  await signIn(page, OPERATOR);
  await page.goto("/crews/review");
  await page.getByLabel("subject").fill("harbour seals");
  await page.getByRole("button", { name: "Start run" }).click();
  await expect(page).toHaveURL(/\/crews\/review\/runs\/[0-9a-f-]{36}$/);
  const id = page.url().split("/").at(-1) as string;
  await expect(page.getByTestId("run-status")).toHaveText("Awaiting review");
  await expect(page.getByText("waits for a reviewer")).toBeVisible();
  await expect(page.getByRole("region", { name: /^Review of/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
  await checkScreen(page, info, "run-as-operator");
  // Their settings are their own tokens and notifications, nothing else.
  await page.goto("/settings");
  await expect(page.getByRole("region", { name: "API tokens" })).toBeVisible();
  await expect(page.getByRole("tab")).toHaveText(["Tokens", "Notifications"]);
  await expect(page.getByRole("table", { name: "Users" })).toHaveCount(0);
  await signOut(page);

  // The reviewer: the run is in the inbox; approving it sends the run on to its next task.
  await signIn(page, REVIEWER);
  await page.goto(`/inbox?run=${id}`);
  const review = page.getByRole("region", { name: /^Review of/ });
  await expect(review).toContainText("harbour seals");
  await checkScreen(page, info, "inbox-as-reviewer");
  await review.getByRole("button", { name: "Approve" }).click();
  await expect.poll(() => pendingTask(request, id), { timeout: 30_000 }).toBe("polish");
});
