// A CrewAI Flow as Crewdeck runs it (the types live beside CrewDef in schema.ts, which holds one):
// the declaration as read, and every crew its methods call, made ready at load.
export type { FlowCondition, FlowMethod, FlowPlan } from "./schema";

/** Where a method's crew is kept in `crews`: the method's name, or `method/step` in an `each`. */
export const crewKey = (method: string, step?: string) => (step ? `${method}/${step}` : method);
