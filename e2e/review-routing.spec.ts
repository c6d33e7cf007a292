import { type Browser, expect, type Page, test } from "@playwright/test";
import { checkScreen, signIn } from "./helpers";

// Reviews routed to people: the inbox filters by assignment, a reviewer claims one, and a quorum
// of two reviewers (each filling in the task's rating form) lets the run go on.

const auth = { authorization: "Bearer e2e-org-token-0123456789abcdef" };

async function addPerson(page: Page, email: string, teams: string[] = []) {
  const origin = new URL(page.url()).origin;
  const res = await page.request.post("/api/users", {
    headers: { origin },
    data: { email, password: `${email} password`, role: "reviewer" },
  });
  expect([201, 409]).toContain(res.status());
  if (res.status() === 201 && teams.length) {
    const { id } = await res.json();
    const patch = await page.request.patch(`/api/users/${id}`, {
      headers: { origin },
      data: { teams },
    });
    expect(patch.ok()).toBe(true);
  }
}

async function personPage(browser: Browser, email: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, { email, password: `${email} password` });
  return page;
}

const queue = (page: Page) => page.getByRole("navigation", { name: "Review queue" });
const filters = (page: Page) => page.getByRole("navigation", { name: "Inbox filters" });

test("the inbox filters by assignment; a second reviewer completes a quorum", async ({
  page,
  browser,
  request,
}, info) => {
  await signIn(page);
  await addPerson(page, "rosa@example.com", ["legal"]);
  await addPerson(page, "quinn@example.com");

  const start = async (crew: string, subject: string) => {
    const res = await request.post(`/api/crews/${crew}/kickoff`, {
      headers: auth,
      data: { inputs: { subject } },
    });
    expect(res.ok()).toBe(true);
    return (await res.json()).kickoff_id as string;
  };
  const contract = await start("assigned-review", "e2e liability");
  const email = await start("pair-review", "e2e refunds");
  const awaiting = async (crew: string, id: string) =>
    (await (await request.get(`/api/crews/${crew}/status/${id}`, { headers: auth })).json()).status;
  await expect.poll(() => awaiting("assigned-review", contract)).toBe("pending_human_input");
  await expect.poll(() => awaiting("pair-review", email)).toBe("pending_human_input");

  // Rosa (team legal): the contract review is her team's, not hers by name; the e-mail, open to
  // anyone who may review, is hers.
  const rosa = await personPage(browser, "rosa@example.com");
  await rosa.goto("/inbox");
  await expect(filters(rosa).getByRole("link", { name: /^Assigned to me/ })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(queue(rosa).locator(`[data-run="${email}"]`)).toBeVisible();
  await expect(queue(rosa).locator(`[data-run="${contract}"]`)).toHaveCount(0);
  await filters(rosa)
    .getByRole("link", { name: /^My team/ })
    .click();
  await expect(rosa).toHaveURL(/scope=team/);
  await expect(queue(rosa).locator(`[data-run="${contract}"]`)).toBeVisible();
  await expect(queue(rosa).locator(`[data-run="${email}"]`)).toHaveCount(0);

  // She claims it: the panel and the queue say she holds it.
  await queue(rosa).locator(`[data-run="${contract}"]`).click();
  const clause = rosa.getByRole("region", { name: "Review of clause" });
  await expect(clause).toContainText("ada@example.com");
  await clause.getByRole("button", { name: "Claim" }).click();
  await expect(clause.getByTestId("claim")).toContainText("You are reviewing this");
  await expect(queue(rosa).locator(`[data-run="${contract}"]`)).toContainText("You are reviewing");
  await checkScreen(rosa, info, "inbox-team-claimed");

  // The e-mail needs two approvals, each with a rating.
  await filters(rosa).getByRole("link", { name: /^All/ }).click();
  await queue(rosa).locator(`[data-run="${email}"]`).click();
  const mail = rosa.getByRole("region", { name: "Review of Write the e-mail" });
  await expect(mail).toContainText("0 of 2");
  await mail.getByRole("button", { name: "Approve" }).click();
  // Said once, on the field, which takes the focus; no banner besides.
  await expect(mail.getByText("Required to approve")).toHaveCount(1);
  await expect(mail.locator('input[type="radio"]').first()).toBeFocused();
  await expect(mail.getByRole("alert")).toHaveCount(0);
  await mail.locator("label", { hasText: /^4$/ }).click();
  await mail.getByLabel("Note for the team").fill("Friendly enough.");
  await checkScreen(rosa, info, "review-form");
  await mail.getByRole("button", { name: "Approve" }).click();
  await expect(mail.getByText("You approved this")).toBeVisible({ timeout: 20_000 });
  await expect(mail).toContainText("1 of 2");
  // Her part is done: no form or buttons left to press.
  await expect(mail.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect(mail.getByText("Your assessment")).toHaveCount(0);
  await expect(mail.getByRole("button", { name: "Claim" })).toHaveCount(0);
  expect(await awaiting("pair-review", email)).toBe("pending_human_input");
  // The queue marks the vote as hers.
  await expect(queue(rosa).locator(`[data-run="${email}"]`)).toContainText("You voted");
  // The run page says the same: still awaiting review, one of two approvals in, by whom.
  await rosa.goto(`/crews/pair-review/runs/${email}`);
  await expect(rosa.getByTestId("run-status")).toHaveText("Awaiting review");
  // The row says the tally (read out in full: still awaiting review).
  const vote = rosa.getByRole("treeitem", { name: /Awaiting review · 1 of 2 approved/ });
  await expect(vote).toContainText("1 of 2 approved");
  await expect(vote).toBeVisible();
  await vote.click();
  await expect(rosa.getByTestId("step-detail")).toContainText(
    "Approved (1 of 2) by rosa@example.com",
  );
  // The vote with what she answered; the step still waits (not "took").
  await expect(rosa.getByTestId("step-detail")).toContainText("rating: 4");
  await expect(rosa.getByTestId("step-detail")).toContainText("Waiting for");
  await checkScreen(rosa, info, "quorum-run-after-vote");

  // Quinn completes the quorum; the run goes on to the end.
  const quinn = await personPage(browser, "quinn@example.com");
  await quinn.goto(`/inbox?run=${email}`);
  const second = quinn.getByRole("region", { name: "Review of Write the e-mail" });
  await expect(second).toContainText("rosa@example.com");
  // The second reviewer sees the same tally, and who is in it.
  await expect(second).toContainText("1 of 2");
  await checkScreen(quinn, info, "quorum-second-reviewer");
  await second.locator("label", { hasText: /^5$/ }).click();
  await second.getByRole("button", { name: "Approve" }).click();
  await expect.poll(() => awaiting("pair-review", email), { timeout: 30_000 }).toBe("completed");
  await expect(queue(quinn).locator(`[data-run="${email}"]`)).toHaveCount(0);

  // Both approvals are in the run's record, with their ratings.
  const events = (
    await (
      await request.get(`/api/crews/pair-review/executions/${email}/events`, { headers: auth })
    ).json()
  ).events as { type: string; data: Record<string, unknown> }[];
  const submitted = events.filter((e) => e.type === "review_submitted").map((e) => e.data);
  expect(submitted.map((d) => [d.reviewer, (d.response as { rating: number }).rating])).toEqual([
    ["rosa@example.com", 4],
    ["quinn@example.com", 5],
  ]);
  await rosa.context().close();
  await quinn.context().close();
});
