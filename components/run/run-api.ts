import { crewApi } from "@/lib/api/client";

type InputValue = string | number | boolean | null;

/** Starts the crew again with the given inputs; answers the new run's id. */
export async function rerun(crew: string, inputs: Record<string, InputValue>) {
  const { kickoff_id } = await crewApi(crew).kickoff(inputs);
  return kickoff_id;
}
