import crypto from "node:crypto";
import http from "node:http";
import Provider, { type KoaContextWithOIDC } from "oidc-provider";
import { freePort } from "./harness";

// A real OpenID Connect provider (the certified `oidc-provider` package) on loopback, for the
// single sign-on tests: one client for the Crewdeck under test, one for "another application",
// people whose groups a test changes as it goes, and a plain login form for its interactions.

type IdpPerson = { email: string; name: string; groups: string[]; emailVerified?: boolean };

export type Idp = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The people who may log in, by login name (their `sub`); tests change their groups. */
  people: Map<string, IdpPerson>;
  /**
   * "wrong-audience": the next token responses carry an ID token the provider signed for the other
   * client (a token substituted in transit, or a code issued to another app): Crewdeck must refuse it.
   */
  mode: "normal" | "wrong-audience";
  close: () => Promise<void>;
};

const OTHER_CLIENT_ID = "another-application";

export async function startIdp({
  redirectUri,
  port,
}: {
  /** Crewdeck's callback: http://127.0.0.1:<port>/api/auth/callback/oidc */
  redirectUri: string;
  port?: number;
}): Promise<Idp> {
  const idpPort = port ?? (await freePort());
  const issuer = `http://127.0.0.1:${idpPort}`;
  const clientId = "crewdeck";
  const clientSecret = crypto.randomBytes(24).toString("base64url");
  const people = new Map<string, IdpPerson>();
  const signingKey = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
      {
        client_id: OTHER_CLIENT_ID,
        client_secret: crypto.randomBytes(24).toString("base64url"),
        redirect_uris: ["http://127.0.0.1:9/callback"],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    jwks: {
      keys: [{ ...signingKey.export({ format: "jwk" }), kid: "test", use: "sig", alg: "RS256" }],
    },
    cookies: { keys: [crypto.randomBytes(16).toString("hex")] },
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["name"],
      groups: ["groups"],
    },
    // Like most company providers, the ID token carries the person's claims (not only `sub`).
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 3600, IdToken: 3600 },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const person = people.get(sub);
      if (!person) return undefined;
      return {
        accountId: sub,
        // Read at each call: a group change shows in the next userinfo answer.
        claims: () => ({
          sub,
          email: person.email,
          email_verified: person.emailVerified ?? true,
          name: person.name,
          groups: [...person.groups],
        }),
      };
    },
  });

  const idp: Idp = {
    issuer,
    clientId,
    clientSecret,
    people,
    mode: "normal",
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  provider.use(async (ctx, next) => {
    await next();
    if (idp.mode === "wrong-audience" && ctx.oidc?.route === "token")
      await swapIdToken(ctx as KoaContextWithOIDC);
  });

  async function swapIdToken(ctx: KoaContextWithOIDC) {
    const body = ctx.body as { id_token?: string } | undefined;
    if (!body?.id_token) return;
    const claims = JSON.parse(
      Buffer.from(body.id_token.split(".")[1] ?? "", "base64url").toString(),
    ) as { sub: string; nonce?: string };
    const other = await provider.Client.find(OTHER_CLIENT_ID);
    const token = new provider.IdToken({ sub: claims.sub }, { ctx, client: other });
    // Only `sub` (the scope is not in the typings, but is what masks the claims).
    (token as unknown as { scope: string }).scope = "openid";
    if (claims.nonce) token.set("nonce", claims.nonce);
    body.id_token = await token.issue({ use: "idtoken" });
  }

  const callback = provider.callback();
  const server = http.createServer((req, res) => {
    const m = /^\/interaction\/([\w-]+)(\/login)?$/.exec(req.url?.split("?")[0] ?? "");
    if (!m) return void callback(req, res);
    interaction(req, res, m[2] === "/login").catch((err) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });

  async function interaction(req: http.IncomingMessage, res: http.ServerResponse, login: boolean) {
    const details = await provider.interactionDetails(req, res);
    if (login && req.method === "POST") {
      const form = new URLSearchParams(await readBody(req));
      const sub = form.get("login") ?? "";
      if (!people.has(sub)) return page(res, details.uid, `No account "${sub}".`);
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: sub } },
        {
          mergeWithLastSubmission: false,
        },
      );
      return;
    }
    if (details.prompt.name === "login") return page(res, details.uid);
    // Consent: granted at once, as a company provider does for its own applications.
    const { prompt, params, session, grantId } = details;
    const grant = grantId
      ? await provider.Grant.find(grantId)
      : new provider.Grant({ accountId: session?.accountId, clientId: String(params.client_id) });
    if (!grant) throw new Error("grant not found");
    const missing = prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    await provider.interactionFinished(
      req,
      res,
      { consent: { grantId: await grant.save() } },
      {
        mergeWithLastSubmission: true,
      },
    );
  }

  await new Promise<void>((resolve) => server.listen(idpPort, "127.0.0.1", resolve));
  return idp;
}

function page(res: http.ServerResponse, uid: string, error?: string) {
  res.setHeader("content-type", "text/html; charset=utf-8");
  res.end(`<!doctype html><html lang="en"><head><title>Test identity provider</title></head><body>
<main><h1>Test identity provider</h1>${error ? `<p role="alert">${error}</p>` : ""}
<form method="post" action="/interaction/${uid}/login">
<label for="login">Username</label> <input id="login" name="login" autocomplete="username">
<button type="submit">Log in</button></form></main></body></html>`);
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => {
      body += c;
      if (body.length > 10_000) req.destroy();
    });
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });
}
