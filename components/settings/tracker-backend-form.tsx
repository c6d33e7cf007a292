import type { TrackerSettingsView } from "@/lib/contract/integrations";
import { InputField, SettingsForm, SubmitButton, TestButton } from "./kit/fields";
import { type Backend, CHOICES, keyPlaceholder } from "./tracker-backend";

/** The two trackers as radio cards. */
function BackendChoices({
  backend,
  onChoose,
}: {
  backend: Backend;
  onChoose: (backend: Backend) => void;
}) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 font-medium text-sm">Agents file issues in</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {CHOICES.map((c) => (
          <label
            key={c.value}
            className="flex cursor-pointer items-start gap-3 rounded-lg border p-3 has-[:checked]:border-primary has-[:checked]:bg-muted"
          >
            <input
              type="radio"
              name="backend"
              value={c.value}
              checked={backend === c.value}
              onChange={() => onChoose(c.value)}
              className="mt-0.5 size-4 accent-primary"
            />
            <span className="grid gap-0.5">
              <span className="font-medium text-sm">{c.label}</span>
              <span className="text-muted-foreground text-xs">{c.help}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The tracker chosen in Settings: which one, Linear's key, Save and a test. */
export function TrackerBackendForm({
  view,
  backend,
  linearKey,
  onChoose,
  onKey,
  saving,
  testing,
  onSave,
  onTest,
}: {
  view: TrackerSettingsView;
  backend: Backend;
  linearKey: string;
  onChoose: (backend: Backend) => void;
  onKey: (key: string) => void;
  saving: boolean;
  testing: boolean;
  onSave: () => void;
  onTest: () => void;
}) {
  return (
    <SettingsForm onSubmit={onSave} className="grid gap-4" aria-label="Issue tracker">
      <BackendChoices backend={backend} onChoose={onChoose} />
      {backend === "linear" && (
        <InputField
          id="linear-key"
          label="Linear API key"
          help="Stored encrypted; never shown again. Leave blank to keep the saved key."
          fieldClassName="max-w-md"
          type="password"
          autoComplete="off"
          value={linearKey}
          onChange={(e) => onKey(e.target.value)}
          placeholder={keyPlaceholder(view)}
        />
      )}
      <div className="flex flex-wrap gap-2">
        <SubmitButton busy={saving} busyLabel="Saving…">
          Save
        </SubmitButton>
        <TestButton testing={testing} onClick={onTest} />
      </div>
    </SettingsForm>
  );
}
