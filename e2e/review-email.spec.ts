import { expect, test } from "@playwright/test";
import { startSmtp } from "../tests/support/smtp";
import { checkScreen, signIn, signOut } from "./helpers";

// Notifications in the browser: an administrator sets up e-mail in Settings; a review waiting is
// e-mailed (to a real SMTP server on loopback); its link, opened signed out, goes through sign-in
// to the review, where the reviewer edits the output and approves the edit.
const ORG_TOKEN = "e2e-org-token-0123456789abcdef";

test("a reviewer follows the e-mailed link, signs in, edits and approves", async ({
  page,
}, info) => {
  const smtp = await startSmtp();
  try {
    await signIn(page);
    await page.goto("/settings?tab=notifications");
    const form = page.getByRole("form", { name: "Notification settings" });
    await form.getByLabel("SMTP host").fill("127.0.0.1");
    await form.getByLabel("Port").fill(String(smtp.port()));
    await form.getByLabel("TLS").selectOption("none");
    await form.getByLabel("From address").fill("crewdeck@example.com");
    await form.getByRole("button", { name: "Save" }).click();
    await expect(form.getByText("Saved.")).toBeVisible();
    await form.getByRole("button", { name: "Send test e-mail" }).click();
    await expect(form.getByText(/Test e-mail sent to/)).toBeVisible();
    await checkScreen(page, info, "notification-settings");

    // A run started by a program: the reviewer hears of it by e-mail only.
    const kickoff = await page.request.post("/api/crews/review/kickoff", {
      headers: { authorization: `Bearer ${ORG_TOKEN}` },
      data: { inputs: { subject: "kingfishers" } },
    });
    expect(kickoff.status()).toBe(200);
    const id = (await kickoff.json()).kickoff_id as string;
    const mail = await smtp.waitFor(
      (m) => m.to_addresses.includes("admin@example.com") && (m.text ?? "").includes(id),
      30_000,
    );
    expect(mail.subject).toBe("Review waiting: draft — Reviewed draft");
    const link = /(http:\/\/\S+\/review-link\/\S+)/.exec(mail.text ?? "")?.[1] as string;
    expect(link).toBeTruthy();

    // Signed out, the link asks for sign-in first, then opens the review.
    await signOut(page);
    await page.goto(link);
    await expect(page).toHaveURL(/\/sign-in\?next=%2Freview-link%2F/);
    await page.getByLabel("Email").fill("admin@example.com");
    await page.getByLabel("Password").fill("correct horse battery");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(new RegExp(`/crews/review/runs/${id}\\?task=draft$`));
    const review = page.getByRole("region", { name: "Review of draft" });
    await expect(review).toBeVisible();

    await review.getByRole("button", { name: "Edit output" }).click();
    await review
      .getByLabel("Edited output (Markdown)")
      .fill("Kingfishers dive fast. (Edited from e-mail.)");
    await review.getByRole("button", { name: "Approve edited" }).click();
    // The run goes on: the next task's review shows up.
    await expect(page.getByRole("region", { name: "Review of polish" })).toBeVisible();
    await page.getByRole("treeitem", { name: /^draft/ }).click();
    await expect(page.getByText("(Edited from e-mail.)").first()).toBeVisible();

    // A link that was tampered with says so, with the way to the inbox.
    await page.goto(`${new URL(link).pathname.slice(0, -4)}AAAA`);
    await expect(page.getByText("This review link is not valid")).toBeVisible();
    await expect(page.getByRole("link", { name: "Open the inbox" })).toBeVisible();
  } finally {
    // Other specs share this server: e-mail goes back off (as the administrator signed in).
    await page.request.put("/api/settings/notifications", {
      headers: { origin: new URL(page.url()).origin },
      data: { smtp: null },
    });
    await smtp.down();
  }
});
