import { Alert } from "@/components/ui/alert";
import { Field } from "@/components/ui/field";
import { Textarea } from "@/components/ui/input";
import { InputField, SettingsForm, SubmitButton, type useFields } from "./kit/fields";

const EXAMPLE = `e.g. {
  "command": "npx",
  "args": ["-y", "@modelcontextprotocol/server-filesystem", "/srv/shared"]
}`;

/** The form that adds a server: its name and its definition as JSON. */
export function McpServerForm({
  form,
  parseError,
  busy,
  onSubmit,
}: {
  form: ReturnType<typeof useFields<{ name: string; config: string }>>;
  parseError: string | null;
  busy: boolean;
  onSubmit: () => void;
}) {
  return (
    <SettingsForm onSubmit={onSubmit} className="grid gap-3" aria-label="Add an MCP server">
      <InputField
        label="Name"
        help="Letters, digits, '_' or '-'."
        placeholder="e.g. files"
        autoComplete="off"
        required
        {...form.bind("name")}
      />
      <Field
        id="mcp-config"
        label="Server (JSON)"
        help="command, args, env, cwd for stdio; url and headers for Streamable HTTP; optional timeout_seconds and requires_approval."
      >
        <Textarea
          aria-describedby="mcp-config-help"
          className="font-mono text-xs"
          rows={5}
          placeholder={EXAMPLE}
          required
          {...form.bind("config")}
        />
      </Field>
      {parseError && <Alert tone="danger">{parseError}</Alert>}
      <div>
        <SubmitButton busy={busy} busyLabel="Saving…">
          Add server
        </SubmitButton>
      </div>
    </SettingsForm>
  );
}
