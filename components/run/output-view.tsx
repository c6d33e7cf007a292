import { JsonBlock } from "./json-block";
import { LazyMarkdown } from "./lazy-markdown";

/** A task's output: structured output (output_json) as formatted JSON, anything else as Markdown. */
export function OutputView({
  text,
  format,
  label = "Output (JSON)",
}: {
  text: string;
  format: "json" | "text";
  label?: string;
}) {
  if (format === "json") {
    try {
      return <JsonBlock label={label} value={JSON.parse(text)} />;
    } catch {
      // Not JSON after all (an older run): show it as it is.
    }
  }
  return <LazyMarkdown text={text} />;
}
