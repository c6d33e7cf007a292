import { request, schema } from "./request";

// A crew's inputs: names (as CrewAI answers) and the JSON Schema the kickoff form is built from.
export const inputsApi = {
  get: (crew: string) =>
    request(schema("InputsResponseSchema"), "GET", `/api/crews/${encodeURIComponent(crew)}/inputs`),
};
