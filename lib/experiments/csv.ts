// RFC 4180 CSV, as spreadsheets export it: a header row, fields optionally in double quotes
// (which may hold commas, newlines and "" for a quote), CRLF or LF line ends, a BOM tolerated.
// One pass, each field cut out whole (not built a character at a time), so a 5 MB upload costs
// time and memory in proportion to it; and it stops at the first record or field past a limit.

export type CsvRecord = { line: number; fields: string[] };
type CsvLimits = { records?: number; fields?: number };

export class CsvError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

/** Past a limit the caller set: the text may be well formed, it is too much. */
export class CsvLimitError extends CsvError {
  constructor(
    line: number,
    readonly limit: keyof CsvLimits,
    message: string,
  ) {
    super(line, message);
  }
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

/** A quoted field from its opening quote at `i`: its text and where it ends (past the quote). */
function quoted(s: string, i: number, line: number): { text: string; end: number } {
  const parts: string[] = [];
  let from = i + 1;
  for (;;) {
    const q = s.indexOf('"', from);
    if (q < 0) throw new CsvError(line, "a quoted field is never closed");
    parts.push(s.slice(from, q));
    if (s.charCodeAt(q + 1) !== QUOTE) return { text: parts.join(""), end: q + 1 };
    parts.push('"');
    from = q + 2;
  }
}

// What ends an unquoted field, or spoils it (a quote).
const SPECIAL = /[,\r\n"]/g;

/** An unquoted field from `i`: up to the next comma or line end. */
function unquoted(s: string, i: number, line: number): number {
  SPECIAL.lastIndex = i;
  const m = SPECIAL.exec(s);
  if (!m) return s.length;
  if (m[0] === '"') throw new CsvError(line, "a quote inside an unquoted field");
  return m.index;
}

const newlines = (text: string) => {
  let n = 0;
  for (let k = text.indexOf("\n"); k >= 0; k = text.indexOf("\n", k + 1)) n++;
  return n;
};

/** Each record with the line it starts on; blank lines are skipped. */
export function parseCsv(text: string, limits: CsvLimits = {}): CsvRecord[] {
  const s = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const maxRecords = limits.records ?? Number.POSITIVE_INFINITY;
  const maxFields = limits.fields ?? Number.POSITIVE_INFINITY;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let line = 1;
  let start = 1;
  for (let i = 0; ; ) {
    if (s.charCodeAt(i) === QUOTE) {
      const f = quoted(s, i, start);
      line += newlines(f.text);
      i = f.end;
      const c = s.charCodeAt(i);
      if (i < s.length && c !== COMMA && c !== LF && c !== CR)
        throw new CsvError(line, "text after a closing quote");
      fields.push(f.text);
    } else {
      const end = unquoted(s, i, line);
      fields.push(s.slice(i, end));
      i = end;
    }
    if (fields.length > maxFields)
      throw new CsvLimitError(start, "fields", `has more than ${maxFields} columns`);
    const c = s.charCodeAt(i);
    if (c === COMMA) {
      i++;
      continue;
    }
    // A line end, or the end of the text: the record is whole.
    if (fields.length > 1 || fields[0] !== "") {
      records.push({ line: start, fields });
      if (records.length > maxRecords)
        throw new CsvLimitError(start, "records", `is past ${maxRecords} records`);
    }
    fields = [];
    if (i >= s.length) return records;
    i += c === CR && s.charCodeAt(i + 1) === LF ? 2 : 1;
    line++;
    start = line;
  }
}
