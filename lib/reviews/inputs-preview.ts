// A run's inputs as the inbox previews them, made in SQL so the rest is never sent: the first
// 20 inputs (by key), each string cut to 200 characters and each object or list longer than
// that as the start of its JSON text, "…" marking a cut. The run's page has them whole.
const PREVIEW_INPUTS = 20;
const PREVIEW_CHARS = 200;

const cut = (text: string) =>
  `CASE WHEN length(${text}) > ${PREVIEW_CHARS} THEN to_jsonb(left(${text}, ${PREVIEW_CHARS}) || '…') ELSE to_jsonb(${text}) END`;

/** A jsonb object of `executions.inputs`' preview, for a SELECT on executions. */
export const INPUTS_PREVIEW = `(SELECT coalesce(jsonb_object_agg(key, CASE jsonb_typeof(value)
             WHEN 'string' THEN ${cut("value #>> '{}'")}
             WHEN 'object' THEN CASE WHEN length(value::text) > ${PREVIEW_CHARS} THEN ${cut("value::text")} ELSE value END
             WHEN 'array' THEN CASE WHEN length(value::text) > ${PREVIEW_CHARS} THEN ${cut("value::text")} ELSE value END
             ELSE value END), '{}'::jsonb)
     FROM (SELECT key, value FROM jsonb_each(inputs) ORDER BY key LIMIT ${PREVIEW_INPUTS}) kv)`;
