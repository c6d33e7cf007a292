export type Inherited = { task_id: string; name: string; output: string };

/** The fork's body: where it starts, and the chosen output only when its text was changed. */
export function forkBody(fromTask: string, chosen: Inherited | undefined, text: string) {
  return {
    from_task: fromTask,
    ...(chosen && text !== chosen.output
      ? { edit: { task_id: chosen.task_id, output: text } }
      : {}),
  };
}

/** The dialog's description: which tasks the fork takes from this run as they are. */
export function forkDescription(inherited: Pick<Inherited, "name">[]): string {
  return `A new run starts at this task. ${inherited.map((t) => `“${t.name}”`).join(", ")} ${inherited.length === 1 ? "is" : "are"} taken from this run as they are, not run again — edit one first if it should read differently.`;
}

export function forkButtonLabel(sending: boolean, edited: boolean): string {
  return sending ? "Starting…" : edited ? "Start the fork with the edit" : "Start the fork";
}
