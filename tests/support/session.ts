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

const unescapeHtml = (s: string) =>
  s.replace(/&(quot|amp|lt|gt|#x27|#39);/g, (_, e: string) =>
    e === "quot" ? '"' : e === "amp" ? "&" : e === "lt" ? "<" : e === "gt" ? ">" : "'",
  );

/** The sign-in page's form: its server action's id and the hidden fields React rendered. */
export async function signInForm(baseUrl: string, next = "/") {
  const page = `${baseUrl}/sign-in?next=${encodeURIComponent(next)}`;
  const html = await (await fetch(page)).text();
  const fields: [string, string][] = [];
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)"(?: value="([^"]*)")?\/>/g))
    fields.push([unescapeHtml(m[1] as string), unescapeHtml(m[2] ?? "")]);
  const ref = fields.find(([name]) => /^\$ACTION_\d+:0$/.test(name));
  if (!ref) throw new Error(`no server action in the sign-in page:\n${html.slice(0, 500)}`);
  const actionId = (JSON.parse(ref[1]) as { id: string }).id;
  /** Posts it as a browser without JavaScript would (Next's form-post server action). */
  const post = (email: string, password: string, headers: Record<string, string> = {}) => {
    const body = new FormData();
    for (const [name, value] of fields) body.append(name, value);
    body.set("email", email);
    body.set("password", password);
    return fetch(page, { method: "POST", body, headers, redirect: "manual" });
  };
  return { page, actionId, post };
}
