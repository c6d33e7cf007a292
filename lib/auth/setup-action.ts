"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { signIn } from "./session";
import { runFirstSetup } from "./sign-in-setup";

export type SetupState = { error: string | null; fields: Record<string, string> };

// The first administrator, when neither ADMIN_EMAIL/ADMIN_PASSWORD nor any user exists. The setup
// code printed on the server console proves the visitor runs the server (not merely reaches its
// port); runFirstSetup is also POST /api/setup.
const FieldErrors = z.array(z.object({ path: z.string(), message: z.string() }));

export async function setupAction(_prev: SetupState, formData: FormData): Promise<SetupState> {
  const form = {
    code: String(formData.get("code") ?? ""),
    email: String(formData.get("email") ?? ""),
    name: String(formData.get("name") ?? "") || undefined,
    password: String(formData.get("password") ?? ""),
  };
  try {
    await runFirstSetup(await getDb(), form, await headers());
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.status === 409) redirect("/sign-in");
    const listed = FieldErrors.safeParse(err.details.errors);
    const fields = listed.success ? listed.data : [];
    return {
      error: fields.length ? "Some fields need another look." : err.message,
      fields: Object.fromEntries(fields.map((f) => [f.path, f.message])),
    };
  }
  await signIn("credentials", { email: form.email, password: form.password, redirectTo: "/" });
  return { error: null, fields: {} };
}
