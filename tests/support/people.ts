import { expect } from "vitest";
import { call } from "./api";
import { TEST_ADMIN } from "./harness";
import { signIn } from "./session";

/** The bootstrap administrator's session, as request headers (cookie + same-site origin). */
export async function adminHeaders(baseUrl: string) {
  return { cookie: await signIn(baseUrl, TEST_ADMIN.email, TEST_ADMIN.password), origin: baseUrl };
}

/** Adds a person with a password and a role, as an administrator does in Settings → Users. */
export async function addPerson(
  baseUrl: string,
  {
    email,
    password = `${email} password`,
    role,
  }: { email: string; password?: string; role: string },
) {
  const r = await call(baseUrl, "POST", "/api/users", {
    headers: await adminHeaders(baseUrl),
    body: { email, password, role },
  });
  expect(r.status, r.text).toBe(201);
  return { id: r.json.id as string, email, password };
}
