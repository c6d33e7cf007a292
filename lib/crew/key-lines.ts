import fs from "node:fs";
import path from "node:path";
import { findNodeAtLocation, type Node as JsonNode, parseTree } from "jsonc-parser";
import { type Document, isMap, isNode, isScalar, isSeq, LineCounter, parseDocument } from "yaml";

// The line a key of a crew file is written on, so a warning or an error can say "file:line" to a
// person and an API client alike. Keys are as the loader names them: `agents.writer.tools.0`,
// `methods.go.do.do[1].action`. A key that is not in the file (a default, a key of crew.py) is
// placed at the nearest key above it that is; a file that is not YAML or JSON has no lines.

type Segment = string | number;

function segments(key: string): Segment[] {
  return key
    .split(/\.|\[(\d+)\]/)
    .filter((s): s is string => !!s)
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

const lineAt = (text: string, offset: number) => text.slice(0, offset).split("\n").length;

type LineOf = (key: string) => number | undefined;
const NONE: LineOf = () => undefined;

/** A file's key → line lookup, the file read and parsed once (1-based lines). */
function keyLines(file: string): LineOf {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return NONE;
  }
  if (/\.jsonc?$/.test(file)) {
    const tree = parseTree(text);
    return tree ? (key) => jsonLine(text, tree, segments(key)) : NONE;
  }
  if (/\.ya?ml$/.test(file)) {
    const counter = new LineCounter();
    const doc = parseDocument(text, { lineCounter: counter, keepSourceTokens: false });
    return (key) => yamlLine(doc, counter, segments(key));
  }
  return NONE;
}

/** 1-based; undefined when the file cannot be read or is not YAML or JSON. */
export function lineOfKey(file: string, key: string): number | undefined {
  return keyLines(file)(key);
}

function yamlLine(doc: Document, counter: LineCounter, path: Segment[]): number | undefined {
  for (let n = path.length; n > 0; n--) {
    const parent = n === 1 ? doc.contents : doc.getIn(path.slice(0, n - 1), true);
    const last = path[n - 1];
    if (isMap(parent)) {
      const pair = parent.items.find(
        (p) => String((isScalar(p.key) ? p.key.value : undefined) ?? p.key) === String(last),
      );
      const range = isNode(pair?.key) ? pair.key.range : undefined;
      if (range) return counter.linePos(range[0]).line;
    } else if (isSeq(parent) && typeof last === "number") {
      const item = parent.items[last];
      if (isNode(item) && item.range) return counter.linePos(item.range[0]).line;
    }
  }
  return undefined;
}

function jsonLine(text: string, tree: JsonNode, path: Segment[]): number | undefined {
  for (let n = path.length; n > 0; n--) {
    const node = findNodeAtLocation(tree, path.slice(0, n));
    // The key's own line: a property's first child is its name.
    const at = node?.parent?.type === "property" ? node.parent : node;
    if (at) return lineAt(text, at.offset);
  }
  return undefined;
}

/** Each problem with the line of its key, its file read relative to `dir` (CREWS_DIR). */
export function withLines<T extends { file: string; key: string; line?: number }>(
  dir: string,
  problems: T[],
): T[] {
  // One read and parse per file, however many of its keys are warned about.
  const files = new Map<string, LineOf>();
  return problems.map((p) => {
    if (p.line !== undefined || !p.key) return p;
    let lookup = files.get(p.file);
    if (!lookup) {
      lookup = keyLines(path.resolve(dir, p.file));
      files.set(p.file, lookup);
    }
    const line = lookup(p.key);
    return line === undefined ? p : { ...p, line };
  });
}
