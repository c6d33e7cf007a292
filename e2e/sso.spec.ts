import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { E2E_ADMIN } from "../playwright.config";
import { FIXTURE_CREWS, freePort, type Proc, startServer, tempDir } from "../tests/support/harness";
import { type Idp, startIdp } from "../tests/support/idp";
import { checkScreen } from "./helpers";

// Single sign-on against a real OpenID Connect provider (`oidc-provider`) on loopback, with a
// Crewdeck of its own: groups map to roles, nobody outside them gets in, password sign-in is off
// but for the recovery administrator, and every refusal is explained on the sign-in page.
let idp: Idp;
let server: Proc & { url: string };

test.beforeAll(async () => {
  const port = await freePort();
  idp = await startIdp({ redirectUri: `http://127.0.0.1:${port}/api/auth/callback/oidc` });
  idp.people.set("alice", {
    email: "alice@example.com",
    name: "Alice Reviewer",
    groups: ["crewdeck-reviewers"],
  });
  idp.people.set("bob", {
    email: "bob@example.com",
    name: "Bob Admin",
    groups: ["crewdeck-admins", "staff"],
  });
  idp.people.set("carol", {
    email: "carol@example.com",
    name: "Carol Outsider",
    groups: ["staff"],
  });
  server = await startServer({
    PORT: String(port),
    DATA_DIR: tempDir("e2e-sso"),
    CREWS_DIR: FIXTURE_CREWS,
    ADMIN_EMAIL: E2E_ADMIN.email,
    ADMIN_PASSWORD: E2E_ADMIN.password,
    OFFLINE_MODEL_DELAY_MS: "0",
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_ID: idp.clientId,
    OIDC_CLIENT_SECRET: idp.clientSecret,
    OIDC_NAME: "Acme ID",
    OIDC_SCOPES: "openid email profile groups",
    OIDC_ROLE_MAP: "crewdeck-admins=admin,crewdeck-reviewers=reviewer",
    OIDC_DEFAULT_ROLE: "none",
    PASSWORD_SIGN_IN: "false",
  });
});
test.afterAll(async () => {
  await server?.kill();
  await idp?.close();
});
test.afterEach(() => {
  idp.mode = "normal";
});

const SSO_BUTTON = { name: "Sign in with Acme ID", exact: true } as const;

/** From Crewdeck's sign-in page to the provider's login form, and the login there. */
async function viaProvider(page: Page, login: string, before?: () => Promise<void>) {
  await page.goto(`${server.url}/sign-in`);
  await page.getByRole("button", SSO_BUTTON).click();
  await expect(page.getByRole("heading", { name: "Test identity provider" })).toBeVisible();
  await before?.();
  await page.getByLabel("Username").fill(login);
  await page.getByRole("button", { name: "Log in" }).click();
}

const account = (page: Page, name: string) =>
  page.getByRole("button", { name: `Account: ${name}` });

/** Each redirect back from the provider, as the browser followed it. */
function callbacks(page: Page) {
  const seen: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/auth/callback/oidc")) seen.push(r.url());
  });
  return seen;
}

test("sign in through the provider: created with the mapped role; out of the group, out at the next request", async ({
  page,
}, info) => {
  await page.goto(`${server.url}/sign-in`);
  // Password sign-in is off: only the button, and the recovery link.
  await expect(page.getByRole("button", SSO_BUTTON)).toBeVisible();
  await expect(page.getByLabel("Password")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Administrator recovery (password)" })).toBeVisible();
  await checkScreen(page, info, "sign-in-sso");

  await viaProvider(page, "alice");
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect(account(page, "Alice Reviewer")).toContainText("reviewer");

  // The provider takes Alice out of crewdeck-reviewers: her next request finds her signed out.
  const alice = idp.people.get("alice");
  if (alice) alice.groups = ["staff"];
  await page.reload();
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  // And she cannot come back in while she is in no mapped group.
  await page.getByRole("button", SSO_BUTTON).click();
  await expect(
    page.getByRole("alert").filter({ hasText: "in no group that gives access to Crewdeck" }),
  ).toBeVisible();
});

test("a person moved to a lesser group has the lesser role at the next request", async ({
  page,
}) => {
  await viaProvider(page, "bob");
  await expect(account(page, "Bob Admin")).toContainText("admin");
  await page.goto(`${server.url}/settings`);
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
  const bob = idp.people.get("bob");
  if (bob) bob.groups = ["crewdeck-reviewers"];
  await page.goto(`${server.url}/`);
  await expect(account(page, "Bob Admin")).toContainText("reviewer");
});

test("someone in no mapped group is refused, with the reason", async ({ page }) => {
  await viaProvider(page, "carol");
  await expect(
    page.getByRole("alert").filter({ hasText: "in no group that gives access to Crewdeck" }),
  ).toBeVisible();
  await page.goto(`${server.url}/`);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
});

test("an ID token issued to another application (wrong audience) is refused", async ({
  page,
}, info) => {
  idp.people.set("dave", { email: "dave@example.com", name: "Dave", groups: ["crewdeck-admins"] });
  idp.mode = "wrong-audience";
  await viaProvider(page, "dave");
  await expect(page).toHaveURL(/\/sign-in\?error=sso-audience/);
  await expect(
    page.getByRole("alert").filter({ hasText: "meant for another application (wrong audience)" }),
  ).toBeVisible();
  await expect(page.locator("body")).not.toContainText(/at \w+ \(|Error:/);
  await checkScreen(page, info, "sign-in-sso-refused");
  await page.goto(`${server.url}/`);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
});

test("a replayed callback (its state already used) is refused", async ({ page, browser }) => {
  idp.people.set("erin", {
    email: "erin@example.com",
    name: "Erin",
    groups: ["crewdeck-reviewers"],
  });
  const seen = callbacks(page);
  await viaProvider(page, "erin");
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  const callback = seen[0] as string;
  expect(callback).toContain("state=");
  // The same browser again: the state was single-use.
  await page.goto(callback);
  await expect(
    page.getByRole("alert").filter({ hasText: "expired or was already used" }),
  ).toBeVisible();
  // Someone else's browser with the stolen redirect: no state of theirs, no session.
  const other = await browser.newContext();
  try {
    const stranger = await other.newPage();
    await stranger.goto(callback);
    await expect(
      stranger.getByRole("alert").filter({ hasText: "expired or was already used" }),
    ).toBeVisible();
    await stranger.goto(`${server.url}/`);
    await expect(stranger.getByRole("heading", { name: "Sign in" })).toBeVisible();
  } finally {
    await other.close();
  }
});

test("an expired state is refused", async ({ page, context }) => {
  idp.people.set("frank", {
    email: "frank@example.com",
    name: "Frank",
    groups: ["crewdeck-reviewers"],
  });
  // The state cookie lives 15 minutes; a browser drops it then. Dropping it here is that expiry.
  await viaProvider(page, "frank", () => dropStateCookie(context));
  await expect(
    page.getByRole("alert").filter({ hasText: "expired or was already used" }),
  ).toBeVisible();
  await page.goto(`${server.url}/`);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
});

async function dropStateCookie(context: BrowserContext) {
  const names = (await context.cookies()).map((c) => c.name);
  expect(names).toContain("authjs.state");
  await context.clearCookies({ name: "authjs.state" });
}

test("password sign-in is off, but the recovery administrator still gets in", async ({ page }) => {
  await page.goto(`${server.url}/sign-in`);
  await page.getByRole("link", { name: "Administrator recovery (password)" }).click();
  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
});
