"use client";

import { Field, fieldAria } from "@/components/ui/field";
import { Input, Select, Textarea } from "@/components/ui/input";

// "New variant"'s two pickers (variant-dialog.tsx): an agent or a task, and its fields to edit.

const LABEL: Record<string, string> = {
  llm: "Model",
  role: "Role",
  goal: "Goal",
  backstory: "Backstory",
  description: "Description",
  expected_output: "Expected output",
};

/** The item being changed and its edits (variant-dialog.tsx's useChoice). */
export type Choice<F extends string> = {
  id: string;
  choose: (id: string) => void;
  edits: Partial<Record<F, string>>;
  setEdits: (edits: Partial<Record<F, string>>) => void;
};

/**
 * Pick one item (an agent, a task) and edit its fields; a field shown on one line (the model)
 * is an input with a placeholder, the rest are text areas. Field ids start with the legend.
 */
export function EditsFieldset<T extends { id: string } & Record<F, string>, F extends string>({
  legend,
  items,
  fields,
  choice,
  oneLine,
  id,
}: {
  legend: string;
  items: T[];
  fields: readonly F[];
  choice: Choice<F>;
  oneLine?: { field: F; placeholder: string };
  id: (field: string) => string;
}) {
  const { id: chosen, choose, edits, setEdits } = choice;
  const prefix = legend.toLowerCase();
  const item = items.find((x) => x.id === chosen);
  return (
    <fieldset className="grid gap-3 rounded-md border p-3">
      <legend className="px-1 font-medium text-sm">{legend}</legend>
      <Select aria-label={legend} value={chosen} onChange={(e) => choose(e.target.value)}>
        {items.map((x) => (
          <option key={x.id} value={x.id}>
            {x.id}
          </option>
        ))}
      </Select>
      {item &&
        fields.map((f) => (
          <Field key={f} id={id(`${prefix}-${f}`)} label={LABEL[f]}>
            {f === oneLine?.field ? (
              <Input
                {...fieldAria(id(`${prefix}-${f}`), {})}
                className="font-mono"
                value={edits[f] ?? item[f]}
                placeholder={oneLine.placeholder}
                onChange={(e) => setEdits({ ...edits, [f]: e.target.value })}
              />
            ) : (
              <Textarea
                {...fieldAria(id(`${prefix}-${f}`), {})}
                className="min-h-14"
                value={edits[f] ?? item[f]}
                onChange={(e) => setEdits({ ...edits, [f]: e.target.value })}
              />
            )}
          </Field>
        ))}
    </fieldset>
  );
}

export function ProcessField({
  id,
  value,
  onChange,
}: {
  id: string;
  value: string;
  onChange: (process: string) => void;
}) {
  return (
    <Field id={id} label="Process">
      <Select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">As the crew has it</option>
        <option value="sequential">Sequential: each task by its own agent</option>
        <option value="hierarchical">Hierarchical: a manager hands out the tasks</option>
      </Select>
    </Field>
  );
}
