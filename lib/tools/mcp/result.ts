import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { fieldOf } from "@/lib/util/field";

// An MCP tool's result as the model reads it and the event log keeps it: text joined, images and
// audio described (mime type and size, never the base64), embedded resources as their text or a
// note, links as their URI; structured content beside the text. isError → {error}.

type Content = CallToolResult["content"][number];

const sizeOf = (base64: string) => Math.floor((base64.length * 3) / 4);

function describe(c: Content): string {
  switch (c.type) {
    case "text":
      return c.text;
    case "image":
    case "audio":
      return `[${c.type}: ${c.mimeType}, ${sizeOf(c.data)} bytes, not shown]`;
    case "resource": {
      const r = c.resource;
      if ("text" in r && typeof r.text === "string") return r.text;
      const blob = "blob" in r && typeof r.blob === "string" ? r.blob : "";
      return `[resource ${r.uri}${r.mimeType ? `, ${r.mimeType}` : ""}, ${sizeOf(blob)} bytes, not shown]`;
    }
    case "resource_link":
      return `[link: ${c.uri}${c.mimeType ? ` (${c.mimeType})` : ""}]`;
    default:
      return `[${String(fieldOf(c, "type"))} content]`;
  }
}

export function toModelResult(result: CallToolResult | { toolResult: unknown }): unknown {
  if ("toolResult" in result) return result.toolResult; // servers of protocol 2024-10-07
  const text = (result.content ?? []).map(describe).join("\n");
  if (result.isError) return { error: text || "the tool failed (no message)" };
  if (result.structuredContent) return { text, structured: result.structuredContent };
  return text;
}
