import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export type Mail = ParsedMail & { to_addresses: string[] };

/**
 * A real SMTP server on loopback (the `smtp-server` package) that keeps every message it is
 * given, parsed. Plain SMTP with an optional login (checked against `password` when one is
 * sent). It can be taken down and brought back on the same port.
 */
export async function startSmtp({
  user = "mailer",
  password,
}: {
  user?: string;
  password?: string;
} = {}) {
  const messages: Mail[] = [];
  const logins: string[] = [];
  let port = 0;
  let server: SMTPServer | null = null;
  const listen = async () => {
    const s = new SMTPServer({
      authOptional: true,
      allowInsecureAuth: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.username === user && (!password || auth.password === password)) {
          logins.push(auth.username ?? "");
          return callback(null, { user: auth.username });
        }
        return callback(new Error("Invalid username or password"));
      },
      onData(stream, _session, callback) {
        simpleParser(stream)
          .then((mail) => {
            const to = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
            messages.push(
              Object.assign(mail, {
                to_addresses: to.flatMap((a) => a.value.map((v) => v.address ?? "")),
              }),
            );
            callback();
          })
          .catch(callback);
      },
    });
    await new Promise<void>((resolve, reject) => {
      s.once("error", reject);
      s.listen(port, "127.0.0.1", () => resolve());
    });
    port = (s.server.address() as AddressInfo).port;
    server = s;
  };
  await listen();
  return {
    port: () => port,
    messages,
    logins,
    /** Waits (with a deadline) for a message matching `match`. */
    async waitFor(match: (m: Mail) => boolean, timeoutMs = 20_000) {
      const start = Date.now();
      for (;;) {
        const found = messages.find(match);
        if (found) return found;
        if (Date.now() - start > timeoutMs)
          throw new Error(
            `no such e-mail within ${timeoutMs} ms; got: ${messages.map((m) => `${m.to_addresses} ${m.subject}`).join(" | ")}`,
          );
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    down: () =>
      new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
    up: listen,
  };
}
export type Smtp = Awaited<ReturnType<typeof startSmtp>>;
