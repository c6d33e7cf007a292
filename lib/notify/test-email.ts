import type { Db } from "@/lib/db/types";
import { errors } from "@/lib/errors";
import { sendEmail } from "./send-email";
import { smtpConfig } from "./settings";

/**
 * Sends one e-mail now, with the saved SMTP settings (not through the outbox: the administrator
 * waits for the answer), and says whether the server took it.
 */
export async function sendTestEmail(db: Db, { to, timeoutMs }: { to: string; timeoutMs: number }) {
  const smtp = await smtpConfig(db);
  if (!smtp) throw errors.conflict("Save the SMTP settings first.");
  const text = "This is a test message from Crewdeck: e-mail notifications reach you.";
  const result = await sendEmail(
    smtp,
    { to, subject: "Crewdeck test e-mail", text, html: `<p>${text}</p>` },
    timeoutMs,
  );
  return { ok: result.error === null, to, error: result.error };
}
