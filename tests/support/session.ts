// Signs in through next-auth's credentials endpoint, as the sign-in form does, and returns the
// session cookie for requests that act as that person.
export async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  const csrfRes = await fetch(`${baseUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const csrfCookie = (csrfRes.headers.getSetCookie() ?? []).map((c) => c.split(";")[0]).join("; ");
  const res = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: baseUrl }),
  });
  const session = (res.headers.getSetCookie() ?? [])
    .map((c) => c.split(";")[0] as string)
    .find((c) => c.includes("authjs.session-token="));
  if (!session) throw new Error(`sign-in as ${email} failed (${res.status})`);
  return session;
}
