// The state machine lives in lib/run-model/states.ts; the contract schemas still import it here.
export { CREWAI_STATES, EXECUTION_STATUSES, TASK_STATUSES } from "@/lib/run-model/states";
