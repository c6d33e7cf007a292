import { AppError } from "@/lib/errors";

// Every failure of a tracker action: a machine-readable code, an HTTP status, and a message an
// LLM can act on (it says what was wrong and what would be right).
export type TrackerErrorCode =
  | "validation_error"
  | "invalid_id"
  | "invalid_identifier"
  | "invalid_date"
  | "empty_query"
  | "invalid_filter"
  | "invalid_status"
  | "invalid_priority"
  | "invalid_state"
  | "unknown_label"
  | "unknown_field"
  | "invalid_parent"
  | "not_found"
  | "permission_denied"
  | "rate_limited"
  | "unknown_action";

const STATUS: Record<TrackerErrorCode, number> = {
  validation_error: 400,
  invalid_id: 400,
  invalid_identifier: 400,
  invalid_date: 400,
  empty_query: 400,
  invalid_filter: 400,
  invalid_status: 422,
  invalid_priority: 422,
  invalid_state: 422,
  unknown_label: 422,
  unknown_field: 422,
  invalid_parent: 422,
  not_found: 404,
  permission_denied: 403,
  rate_limited: 429,
  unknown_action: 404,
};

/**
 * A tracker failure is an AppError like any other (one problem body for every route); its code is
 * one of the codes above, and the integration routes also send it as CrewAI's `error` member.
 */
export class TrackerError extends AppError {
  declare readonly code: TrackerErrorCode;
  constructor(code: TrackerErrorCode, message: string, status = STATUS[code]) {
    super(
      code,
      status,
      message,
      {},
      status === 401 ? { "www-authenticate": 'Bearer realm="crewdeck-integrations"' } : {},
    );
    this.name = "TrackerError";
  }
  toJSON() {
    return { error: { code: this.code, message: this.message } };
  }
}
