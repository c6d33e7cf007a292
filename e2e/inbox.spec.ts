import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { checkScreen, signIn } from "./helpers";

// The reviewer's queue: every run that waits for a decision, reviewed without leaving the page.
// Approval waits out an undo window; the page's clock is paused so the window is stepped, not slept.

const auth = { authorization: "Bearer e2e-org-token-0123456789abcdef" };
const CREW = "named-review";

async function start(request: APIRequestContext, topic: string) {
  const res = await request.post(`/api/crews/${CREW}/kickoff`, {
    headers: auth,
    data: { inputs: { topic, audience: "sailors" } },
  });
  expect(res.ok()).toBe(true);
  return (await res.json()).kickoff_id as string;
}

/** The run's state as the API says it: "awaiting <task> #<attempt>", or its status. */
async function state(request: APIRequestContext, id: string) {
  const s = await (await request.get(`/api/crews/${CREW}/status/${id}`, { headers: auth })).json();
  const p = s.pending_human_input;
  return p ? `awaiting ${p.task_id} #${p.attempt}` : (s.status as string);
}

const queue = (page: Page) => page.getByRole("navigation", { name: "Review queue" });
const item = (page: Page, id: string) => queue(page).locator(`[data-run="${id}"]`);
const review = (page: Page) => page.getByRole("region", { name: "Review of Write the draft" });

test("the inbox lists what awaits review, by crew and task name; j and k move", async ({
  page,
  request,
}, info) => {
  const first = await start(request, "tide pools");
  const second = await start(request, "moon phases");
  await expect.poll(() => state(request, first)).toBe("awaiting draft #1");
  await expect.poll(() => state(request, second)).toBe("awaiting draft #1");

  await signIn(page);
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: /^Inbox/ })
    .click();
  await expect(item(page, first)).toContainText("Named review");
  await expect(item(page, first)).toContainText("Write the draft");
  await expect(item(page, first)).toContainText("topic: tide pools");
  await expect(item(page, first)).toContainText("audience: sailors");

  await item(page, first).click();
  await expect(page).toHaveURL(new RegExp(`/inbox\\?run=${first}$`));
  await expect(item(page, first)).toHaveAttribute("aria-current", "true");
  await expect(review(page)).toContainText("Draft a note about tide pools");

  // Longest waiting first: the second run comes right after the first.
  const ids = await queue(page)
    .locator("[data-run]")
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-run")));
  expect(ids.indexOf(second)).toBe(ids.indexOf(first) + 1);
  await page.keyboard.press("j");
  await expect(page).toHaveURL(new RegExp(`run=${second}$`));
  await expect(review(page)).toContainText("moon phases");
  await page.keyboard.press("k");
  await expect(page).toHaveURL(new RegExp(`run=${first}$`));

  // Keys typed into the feedback are text, not commands.
  await page.getByLabel("Feedback").fill("");
  await page.getByLabel("Feedback").press("j");
  await expect(page.getByLabel("Feedback")).toHaveValue("j");
  await expect(page).toHaveURL(new RegExp(`run=${first}$`));
  await page.getByLabel("Feedback").fill("");

  await checkScreen(page, info, "inbox");

  // On a phone the queue comes first; a selection opens the review with a way back.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/inbox");
  await expect(review(page)).toBeHidden();
  await item(page, second).click();
  await expect(page.getByRole("region", { name: "Review of Write the draft" })).toBeVisible();
  await expect(queue(page)).toBeHidden();
  await page.getByRole("button", { name: "Back to the queue" }).click();
  await expect(queue(page)).toBeVisible();
});

test("approve waits out an undo window: Undo keeps it waiting, letting it go sends it", async ({
  page,
  request,
}) => {
  const id = await start(request, "harbours");
  await expect.poll(() => state(request, id)).toBe("awaiting draft #1");
  const resumes: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().endsWith(`/api/crews/${CREW}/resume`)) resumes.push(id);
  });

  await page.clock.install();
  await signIn(page);
  await page.goto(`/inbox?run=${id}`);
  await expect(review(page)).toContainText("harbours");
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1_000));

  await review(page).getByRole("button", { name: "Approve" }).click();
  await expect(review(page).getByText("Approving “Write the draft” in 5 seconds")).toBeVisible();
  await expect(item(page, id)).toContainText("Approving…");
  // One confirmation, one Undo: the panel's notice, no toast beside it.
  await expect(page.getByRole("button", { name: "Undo" })).toHaveCount(1);
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);
  await review(page).getByRole("button", { name: "Undo" }).click();
  await page.clock.runFor(6_000);
  await expect(review(page).getByRole("button", { name: "Approve" })).toBeEnabled();
  await expect(item(page, id)).not.toContainText("Approving…");

  // `a` approves from the keyboard, with the same window; this time it is let go.
  await review(page).getByText("Expected:").click();
  await page.keyboard.press("a");
  await expect(review(page).getByText("Approving “Write the draft” in 5 seconds")).toBeVisible();
  await page.clock.runFor(6_000);
  await page.clock.resume();
  await expect.poll(() => state(request, id)).not.toBe("awaiting draft #1");
  expect(resumes).toHaveLength(1); // the undone approval was never sent
  await expect(item(page, id)).toHaveCount(0);
});

test("send back needs feedback; its message goes once the next attempt awaits review", async ({
  page,
  request,
}) => {
  const id = await start(request, "lighthouses");
  await expect.poll(() => state(request, id)).toBe("awaiting draft #1");
  await signIn(page);
  await page.goto(`/inbox?run=${id}`);
  await expect(review(page)).toContainText("lighthouses");

  await review(page).getByRole("button", { name: "Send back" }).click();
  await expect(review(page).getByText("sending back needs feedback")).toBeVisible();
  await expect(page.getByLabel("Feedback")).toBeFocused();

  await page.getByLabel("Feedback").blur();
  await page.keyboard.press("s");
  await expect(page.getByLabel("Feedback")).toBeFocused();
  await page.keyboard.type("Name the oldest lighthouse.");
  await review(page).getByRole("button", { name: "Send back" }).click();
  const notice = page.getByText(
    "Sent “Write the draft” back: it will run again with your feedback (attempt 2).",
  );
  await expect(notice).toBeVisible();

  // Attempt 2 arrives on its own (live), and the message about it running again is gone.
  await expect(item(page, id)).toContainText("Attempt 2", { timeout: 30_000 });
  await expect(notice).toHaveCount(0);
  expect(await state(request, id)).toBe("awaiting draft #2");
});

test("a decision someone else already made is said, with a refresh", async ({ page, request }) => {
  // A page that has not heard yet (its live stream down): the decision is refused, and says so.
  await page.route("**/api/reviews/stream", (route) => route.abort());
  const id = await start(request, "kelp");
  await expect.poll(() => state(request, id)).toBe("awaiting draft #1");
  await signIn(page);
  await page.goto(`/inbox?run=${id}`);
  await expect(review(page)).toContainText("kelp");

  const other = await request.post(`/api/crews/${CREW}/resume`, {
    headers: auth,
    data: { execution_id: id, task_id: "draft", human_feedback: "", is_approve: true },
  });
  expect(other.ok()).toBe(true);
  await page.getByLabel("Feedback").fill("Longer.");
  await review(page).getByRole("button", { name: "Send back" }).click();
  await expect(page.getByText("Already decided", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Refresh" })).toBeVisible();
});

test("a review decided elsewhere while open: the inbox says who did what, and opens the next", async ({
  page,
  request,
}, info) => {
  const first = await start(request, "eelgrass");
  const next = await start(request, "limpets");
  await expect.poll(() => state(request, first)).toBe("awaiting draft #1");
  await expect.poll(() => state(request, next)).toBe("awaiting draft #1");
  await signIn(page);
  await page.goto(`/inbox?scope=all&run=${first}`);
  await expect(review(page)).toContainText("eelgrass");
  const other = await request.post(`/api/crews/${CREW}/resume`, {
    headers: auth,
    data: { execution_id: first, task_id: "draft", human_feedback: "", is_approve: true },
  });
  expect(other.ok()).toBe(true);
  // The next refresh finds it gone: what became of it is said, and the next review opens.
  await expect(
    page.getByText("Write the draft (eelgrass): Approved by the CREW_TOKEN token."),
  ).toBeVisible({
    timeout: 20_000,
  });
  await expect(item(page, first)).toHaveCount(0);
  // The longest-waiting review opens (on a shared server, maybe another crew's).
  await expect(page).not.toHaveURL(new RegExp(`run=${first}`));
  await expect(page.getByRole("region", { name: /^Review of / }).first()).toBeVisible();
  await checkScreen(page, info, "inbox-decided-elsewhere");
});

test("an empty inbox says so and points to the runs, or to reviews for others", async ({
  page,
}, info) => {
  await signIn(page);
  // Other specs leave runs waiting: the list is answered empty here.
  let others = 0;
  await page.route("**/api/reviews?*", (route) =>
    route.fulfill({
      json: { reviews: [], counts: { mine: 0, team: 0, all: others, actionable: 0 } },
    }),
  );
  await page.goto("/inbox");
  await expect(page.getByText("Nothing assigned to you")).toBeVisible();
  await expect(page.getByRole("link", { name: "See all runs" })).toHaveAttribute("href", "/runs");
  await checkScreen(page, info, "inbox-empty");

  // Nothing for me, but reviews wait for other people: the way there is offered.
  others = 3;
  await page.reload();
  await expect(
    page.getByText("Other reviews are waiting for other people or teams."),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "See all 3 waiting" })).toHaveAttribute(
    "href",
    "/inbox?scope=all",
  );
});

test("reassign picks people, roles and teams from a list; a mistake is said on the field", async ({
  page,
  request,
}, info) => {
  const id = await start(request, "kelp forests");
  await expect.poll(() => state(request, id)).toBe("awaiting draft #1");
  await signIn(page);
  await page.goto(`/inbox?scope=all&run=${id}`);
  await expect(review(page)).toContainText("kelp forests");
  await review(page).getByRole("button", { name: "Reassign" }).click();
  const dialog = page.getByRole("dialog", { name: "Reassign this review" });
  const options = dialog.getByRole("group", { name: "Assign to" });
  // Only who may review is offered: the administrator, by name, and the roles that may.
  await expect(options.getByRole("group", { name: "People" })).toContainText("admin@example.com");
  await expect(options.getByRole("group", { name: "Roles" })).toContainText("reviewer");
  await expect(options.getByRole("checkbox", { name: /^viewer/ })).toHaveCount(0);

  // Nothing chosen: said on the field, once, not as a toast.
  await dialog.getByRole("button", { name: "Reassign" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Choose at least one person, role or team.");
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);

  // Typing narrows the list: the administrator no longer matches.
  await dialog.getByRole("searchbox", { name: "Search people, roles and teams" }).fill("revi");
  await expect(options).not.toContainText("admin@example.com");
  await options
    .getByRole("group", { name: "Roles" })
    .getByRole("checkbox", { name: /^reviewer/ })
    .check();
  await expect(dialog.getByRole("list", { name: "Chosen" })).toContainText("reviewer");
  await expect(dialog.getByRole("alert")).toHaveCount(0);
  await checkScreen(page, info, "inbox-reassign");
  await dialog.getByRole("button", { name: "Reassign" }).click();
  await expect(dialog).toHaveCount(0);
  // The review says whom it is for now; nothing else repeats it.
  await expect(review(page)).toContainText("reviewer (role)");
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);
});
