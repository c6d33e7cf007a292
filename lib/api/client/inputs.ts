import { InputsResponseSchema } from "@/lib/api/schemas";
import { request } from "./request";

// A crew's inputs: names (as CrewAI answers) and the JSON Schema the kickoff form is built from.
export const inputsApi = {
  get: (crew: string) =>
    request(InputsResponseSchema, "GET", `/api/crews/${encodeURIComponent(crew)}/inputs`),
};
