import { Field, FieldNotes, fieldAria } from "@/components/ui/field";
import { Checkbox, Input, Select, Textarea } from "@/components/ui/input";
import type { InputProperty } from "@/lib/crew/input-schema";

export type FormValue = string | boolean;

/**
 * A date's description without "YYYY-MM-DD": the picker shows the browser's own format (and sends
 * YYYY-MM-DD whatever it shows), so the words would contradict what the person sees.
 */
export function withoutIsoFormat(text: string | null | undefined): string | undefined {
  const left = text
    ?.replace(/\s*[(,;:]?\s*(?:in |as |format:? |written )?YYYY-MM-DD(?: format)?\)?/gi, "")
    .trim();
  return left || undefined;
}

/** One input of the kickoff form, with the control its `x-control` asks for. */
export function KickoffField({
  name,
  prop,
  required,
  value,
  error,
  onChange,
}: {
  name: string;
  prop: InputProperty;
  required: boolean;
  value: FormValue;
  error?: string;
  onChange: (v: FormValue) => void;
}) {
  const id = `input-${name}`;
  const control = prop["x-control"];
  const help = control === "date" ? withoutIsoFormat(prop.description) : prop.description;
  const aria = fieldAria(id, { help, error });
  const example = prop.examples?.[0];
  const placeholder = example !== undefined ? `e.g. ${String(example)}` : undefined;
  const text = typeof value === "string" ? value : "";
  const common = { ...aria, name, required, "aria-required": required || undefined };

  if (control === "checkbox")
    return (
      <div className="grid gap-1.5">
        <div className="flex items-center gap-2">
          <Checkbox
            {...common}
            checked={value === true}
            onChange={(e) => onChange(e.target.checked)}
          />
          <label htmlFor={id} className="font-medium text-sm">
            {prop.title}
          </label>
        </div>
        <FieldNotes id={id} help={help} error={error} />
      </div>
    );

  return (
    <Field id={id} label={prop.title} help={help} error={error} required={required}>
      {control === "select" ? (
        <Select {...common} value={text} onChange={(e) => onChange(e.target.value)}>
          {!required || prop.default === undefined ? <option value="">Choose…</option> : null}
          {(prop.enum ?? []).map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </Select>
      ) : control === "textarea" || control === "json" ? (
        <Textarea
          {...common}
          rows={control === "json" ? 5 : 4}
          spellCheck={control === "json" ? false : undefined}
          className={control === "json" ? "font-mono text-xs" : undefined}
          placeholder={placeholder ?? (control === "json" ? 'e.g. {"key": "value"}' : undefined)}
          value={text}
          onChange={(e) => onChange(e.target.value)}
        />
      ) : (
        <Input
          {...common}
          type={control === "number" ? "number" : control === "date" ? "date" : "text"}
          inputMode={control === "number" ? "decimal" : undefined}
          step={control === "number" ? "any" : undefined}
          placeholder={placeholder}
          value={text}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}
