// RFC 4180 CSV, as spreadsheets export it: a header row, fields optionally in double quotes
// (which may hold commas, newlines and "" for a quote), CRLF or LF line ends, a BOM tolerated.

export type CsvRecord = { line: number; fields: string[] };

export class CsvError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

/** Each record with the line it starts on; blank lines are skipped. */
export function parseCsv(text: string): CsvRecord[] {
  const s = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = "";
  let line = 1;
  let start = 1;
  let quoted = false;
  let wasQuoted = false;
  const endField = () => {
    fields.push(field);
    field = "";
    wasQuoted = false;
  };
  const endRecord = () => {
    endField();
    if (fields.length > 1 || fields[0] !== "") records.push({ line: start, fields });
    fields = [];
  };
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === "\n") line++;
        field += c;
      }
      continue;
    }
    if (c === '"') {
      if (field !== "" || wasQuoted) throw new CsvError(line, "a quote inside an unquoted field");
      quoted = true;
      wasQuoted = true;
    } else if (c === ",") endField();
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && s[i + 1] === "\n") i++;
      endRecord();
      line++;
      start = line;
    } else {
      if (wasQuoted) throw new CsvError(line, "text after a closing quote");
      field += c;
    }
  }
  if (quoted) throw new CsvError(start, "a quoted field is never closed");
  if (field !== "" || fields.length || wasQuoted) endRecord();
  return records;
}
