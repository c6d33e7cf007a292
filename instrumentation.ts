// Next.js calls this once when the server starts: migrate, load crews, start the worker.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { bootOrExit } = await import("@/lib/server/boot");
  await bootOrExit();
}
