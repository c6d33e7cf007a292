import { expect, test } from "@playwright/test";
import { checkScreen, signIn } from "./helpers";

// A crew's page: what it is, the kickoff form built from its typed inputs, its recent runs.

const auth = { authorization: "Bearer e2e-org-token-0123456789abcdef" };

test("crews list: each crew with its counts, inputs and a way to start", async ({ page }, info) => {
  await signIn(page);
  await page.getByRole("link", { name: "Crews", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Crews", level: 1 })).toBeVisible();
  const card = page.getByRole("listitem").filter({ has: page.getByText("Typed inputs") });
  await expect(card).toContainText("1 agent · 1 task");
  await expect(card).toContainText("draft_only");
  const startLink = card.getByRole("link", { name: "Start run" });
  await expect(startLink).toHaveAttribute("href", "/crews/typed-inputs");
  await expect(startLink).toHaveAccessibleDescription("Typed inputs");
  await checkScreen(page, info, "crews");
});

test("the kickoff form: a control per type, 422s on their fields, values kept, run opens", async ({
  page,
  request,
}, info) => {
  await signIn(page);
  await page.goto("/crews/typed-inputs");
  await expect(page.getByRole("heading", { name: "Typed inputs", level: 1 })).toBeVisible();
  await expect(page.getByText("No runs yet")).toBeVisible();

  const topic = page.getByLabel("Topic");
  await expect(topic).toHaveJSProperty("tagName", "TEXTAREA");
  await expect(topic).toHaveAttribute("placeholder", "e.g. Tides");
  await expect(topic).toHaveAccessibleDescription("What to write about.");
  await expect(page.getByLabel("Words")).toHaveAttribute("type", "number");
  await expect(page.getByLabel("Words")).toHaveValue("100");
  await expect(page.getByLabel("Tone")).toHaveJSProperty("tagName", "SELECT");
  await expect(page.getByLabel("Tone")).toHaveValue("plain");
  await expect(page.getByLabel("Draft only")).toHaveAttribute("type", "checkbox");
  await expect(page.getByLabel("Due date")).toHaveAttribute("type", "date");
  await expect(page.getByLabel("Data")).toHaveJSProperty("tagName", "TEXTAREA");
  await expect(page.getByLabel("Audience")).toHaveAttribute("type", "text");

  // JSON is checked before anything is sent.
  await page.getByLabel("Data").fill("{oops");
  await page.getByRole("button", { name: "Start run" }).click();
  await expect(page.getByLabel("Data")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText(/Not valid JSON/)).toBeVisible();

  // The server's 422 lands on the field; what was typed stays.
  await page.getByLabel("Data").fill('{"pages": 2}');
  await page.getByLabel("Words").fill("250");
  await page.getByLabel("Tone").selectOption("warm");
  await page.getByLabel("Draft only").check();
  await page.getByLabel("Audience").fill("sailors");
  await page.getByRole("button", { name: "Start run" }).click();
  await expect(topic).toHaveAttribute("aria-invalid", "true");
  await expect(topic).toBeFocused();
  await expect(page.getByText("Topic is required.")).toBeVisible();
  await expect(page.getByLabel("Words")).toHaveValue("250");
  await expect(page.getByLabel("Tone")).toHaveValue("warm");
  await expect(page.getByLabel("Draft only")).toBeChecked();
  await expect(page.getByLabel("Data")).toHaveValue('{"pages": 2}');
  await checkScreen(page, info, "crew-page");

  await topic.fill("Tides");
  await expect(topic).not.toHaveAttribute("aria-invalid", "true");
  await page.getByRole("button", { name: "Start run" }).click();
  await expect(page).toHaveURL(/\/crews\/typed-inputs\/runs\/[0-9a-f-]{36}$/);
  const id = page.url().split("/").pop() ?? "";
  const status = await (
    await request.get(`/api/crews/typed-inputs/status/${id}`, { headers: auth })
  ).json();
  expect(status.inputs).toMatchObject({
    topic: "Tides",
    words: 250,
    tone: "warm",
    draft_only: true,
  });

  // Back on the crew's page, the run is in its recent runs.
  await page.goto("/crews/typed-inputs");
  await expect(page.getByRole("link", { name: new RegExp(id.slice(0, 8)) })).toBeVisible();
});

test("a crew that cannot run says why beside the form, and Start is off; load warnings show", async ({
  page,
}, info) => {
  await signIn(page);
  await page.goto("/crews/failing-model");
  const blocked = page.getByRole("status").filter({ hasText: "This crew cannot run yet" });
  await expect(blocked).toContainText("OPENAI_API_KEY");
  await expect(page.getByRole("button", { name: "Start run" })).toBeDisabled();
  await checkScreen(page, info, "crew-page-blocked");
  // What the loader warned of, with the file and line.
  await page.goto("/crews/toolkit-search");
  await expect(page.getByText("toolkit-search/crew.yaml:8 agents.searcher.tools.0")).toBeVisible();
  await expect(page.getByRole("button", { name: "Start run" })).toBeEnabled();
});
