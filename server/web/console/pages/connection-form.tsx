/**
 * The connector forms, generated from the JSON Schemas the catalog gives for each connector's settings and secrets:
 * connecting a project to a remote system, editing a connection's settings, and replacing its credentials.
 */
import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError } from '../../../../src/client/client.js';
import type { CatalogConnector, IntegrationConnection } from '../../../../src/client/types.js';
import { ErrorNotice, FormActions, InputField } from '../components.js';
import { useProject } from '../context.js';
import { useRequest } from '../hooks.js';

/** The part of JSON Schema the connectors' settings and secrets use. */
interface JsonSchema {
  type?: string | string[];
  format?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
}

type Kind = 'text' | 'url' | 'boolean' | 'integer' | 'number' | 'enum' | 'list' | 'map' | 'map-of-lists' | 'json';

interface SchemaField {
  name: string;
  label: string;
  kind: Kind;
  required: boolean;
  secret: boolean;
  description: string | undefined;
  placeholder: string | undefined;
  schema: JsonSchema;
}

/** What the person typed, by property name (a checkbox holds a boolean). */
export type Values = Record<string, string | boolean>;

const ACRONYMS: Record<string, string> = { url: 'URL', api: 'API', id: 'ID', ids: 'IDs', oauth: 'OAuth', px: 'px' };

/** `source_url` → "Source URL". */
export function labelOf(name: string): string {
  const words = name.split(/[_\s]+/).filter(Boolean);
  return words.map((w, i) => ACRONYMS[w.toLowerCase()] ?? (i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w)).join(' ');
}

const typeOf = (s: JsonSchema): string | undefined => (Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type);

function kindOf(s: JsonSchema): Kind {
  if (s.enum) return 'enum';
  switch (typeOf(s)) {
    case 'boolean':
      return 'boolean';
    case 'integer':
      return 'integer';
    case 'number':
      return 'number';
    case 'array':
      return s.items && typeOf(s.items) === 'string' ? 'list' : 'json';
    case 'object': {
      const values = typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
      if (s.properties || !values) return 'json';
      if (typeOf(values) === 'string') return 'map';
      if (typeOf(values) === 'array' && values.items && typeOf(values.items) === 'string') return 'map-of-lists';
      return 'json';
    }
    default:
      return s.format === 'uri' ? 'url' : 'text';
  }
}

/** How a default reads in the field that shows it as its placeholder. */
function placeholderOf(kind: Kind, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (kind === 'list' && Array.isArray(value)) return value.length > 0 ? value.join(', ') : undefined;
  if ((kind === 'map' || kind === 'map-of-lists') && typeof value === 'object') {
    const lines = Object.entries(value as Record<string, unknown>).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(', ') : String(v)}`);
    return lines.length > 0 ? lines.join('\n') : undefined;
  }
  if (kind === 'boolean') return undefined;
  return typeof value === 'object' ? JSON.stringify(value) : String(value as string | number);
}

function fieldsOf(schema: JsonSchema, secret: boolean): SchemaField[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, s]) => {
    const kind = kindOf(s);
    return { name, label: labelOf(name), kind, required: required.has(name), secret: secret && (kind === 'text' || kind === 'url'), description: s.description, placeholder: placeholderOf(kind, s.default), schema: s };
  });
}

/** A schema's alternatives (Bitbucket takes an access token, or a user name with an app password); one for a plain object schema. */
export function alternativesOf(schema: Record<string, unknown> | null): JsonSchema[] {
  if (!schema) return [];
  const s = schema as JsonSchema;
  const options = s.anyOf ?? s.oneOf;
  return options && options.every((o) => o.properties) ? options : [s];
}

/** The starting values: each checkbox at its default; every other field empty, its default shown as the placeholder. */
export function initialValues(schema: JsonSchema | undefined): Values {
  const values: Values = {};
  for (const [name, s] of Object.entries(schema?.properties ?? {})) values[name] = kindOf(s) === 'boolean' ? s.default === true : '';
  return values;
}

/** Stored settings as the form's input, the inverse of `valuesToObject`; a checkbox with no stored value shows its default. */
export function valuesOf(schema: JsonSchema, settings: Record<string, unknown>): Values {
  const values: Values = {};
  for (const field of fieldsOf(schema, false)) {
    const value = settings[field.name];
    if (field.kind === 'boolean') {
      values[field.name] = typeof value === 'boolean' ? value : field.schema.default === true;
      continue;
    }
    if (value === undefined || value === null) values[field.name] = '';
    else if (field.kind === 'list' && Array.isArray(value)) values[field.name] = value.map(String).join(', ');
    else if ((field.kind === 'map' || field.kind === 'map-of-lists') && typeof value === 'object' && !Array.isArray(value)) {
      values[field.name] = Object.entries(value as Record<string, unknown>)
        .map(([k, v]) => `${k}=${Array.isArray(v) ? v.map(String).join(', ') : String(v)}`)
        .join('\n');
    } else values[field.name] = typeof value === 'object' ? JSON.stringify(value) : String(value as string | number | boolean);
  }
  return values;
}

/** Thrown for input the form can tell is malformed before sending it; `field` is the property it names. */
class InputError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const splitList = (text: string) =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

/**
 * The typed input as the object the API takes: empty fields are left out, so the connector's defaults apply; a
 * checkbox is sent only when it differs from its default. The API validates the rest and names the field it refuses.
 */
export function valuesToObject(schema: JsonSchema, values: Values, what: 'settings' | 'secrets'): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fieldsOf(schema, what === 'secrets')) {
    const raw = values[field.name];
    const path = `${what}.${field.name}`;
    if (field.kind === 'boolean') {
      if (typeof raw === 'boolean' && raw !== (field.schema.default === true)) out[field.name] = raw;
      continue;
    }
    // A secret is sent as typed: its spaces may be part of it.
    const text = typeof raw === 'string' ? (field.secret ? raw : raw.trim()) : '';
    if (text === '') continue;
    switch (field.kind) {
      case 'integer':
      case 'number': {
        const n = Number(text);
        if (!Number.isFinite(n) || (field.kind === 'integer' && !Number.isInteger(n))) throw new InputError(field.name, `${path}: '${text}' is not ${field.kind === 'integer' ? 'a whole number' : 'a number'}.`);
        out[field.name] = n;
        break;
      }
      case 'list':
        out[field.name] = splitList(text);
        break;
      case 'map':
      case 'map-of-lists': {
        const map: Record<string, unknown> = {};
        const lines = text.split('\n');
        lines.forEach((line, i) => {
          if (line.trim() === '') return;
          const at = line.indexOf('=');
          if (at <= 0) throw new InputError(field.name, `${path}: line ${i + 1} ('${line.trim()}') is not key=value.`);
          const value = line.slice(at + 1).trim();
          map[line.slice(0, at).trim()] = field.kind === 'map' ? value : splitList(value);
        });
        out[field.name] = map;
        break;
      }
      case 'json':
        try {
          out[field.name] = JSON.parse(text) as unknown;
        } catch {
          throw new InputError(field.name, `${path}: '${text}' is not JSON.`);
        }
        break;
      default:
        out[field.name] = text;
    }
  }
  return out;
}

/** The fields a failed request names: a 422's `problems` ("settings.source_url: …"), or the field of a local check. */
export function problemFields(error: unknown, what: 'settings' | 'secrets'): Set<string> {
  const fields = new Set<string>();
  if (error instanceof InputError && error.message.startsWith(`${what}.`)) fields.add(error.field);
  if (error instanceof ApiError) {
    const problems = (error.body as { problems?: unknown } | null)?.problems;
    if (Array.isArray(problems)) {
      for (const p of problems) {
        const match = typeof p === 'string' ? new RegExp(`^${what}\\.([^.:\\s]+)`).exec(p) : null;
        if (match) fields.add(match[1]!);
      }
    }
  }
  return fields;
}

/** A description with its `code` spans as code. */
function Described(props: { text: string }) {
  const parts = props.text.split('`');
  return (
    <>
      {parts.map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : <Fragment key={i}>{part}</Fragment>))}
    </>
  );
}

function kindHint(kind: Kind): string | undefined {
  if (kind === 'list') return 'Separate values with commas.';
  if (kind === 'map') return 'One key=value a line.';
  if (kind === 'map-of-lists') return 'One key=value a line; separate the values with commas.';
  if (kind === 'json') return 'JSON.';
  return undefined;
}

/** One input per property of `schema`, by its type; `invalid` names the properties a refusal named. */
export function SchemaFields(props: { idPrefix: string; schema: JsonSchema; secret: boolean; values: Values; invalid: Set<string>; onChange(values: Values): void }) {
  const { idPrefix, values, invalid } = props;
  const fields = fieldsOf(props.schema, props.secret);
  if (fields.length === 0) return <p class="hint">Nothing to fill in.</p>;
  const set = (name: string, value: string | boolean) => props.onChange({ ...values, [name]: value });
  return (
    <div class="form-grid">
      {fields.map((f) => {
        const id = `${idPrefix}-${f.name}`;
        const hintId = `${id}-hint`;
        const text = typeof values[f.name] === 'string' ? (values[f.name] as string) : '';
        const common = { id, name: f.name, 'aria-describedby': hintId, 'aria-invalid': invalid.has(f.name) ? true : undefined, required: f.required };
        const extra = kindHint(f.kind);
        const hint = (
          <p class="hint" id={hintId}>
            {f.description ? <Described text={f.description} /> : null}
            {f.description && extra ? ' ' : null}
            {extra}
          </p>
        );
        if (f.kind === 'boolean') {
          return (
            <div class="field" key={f.name}>
              <label class="check">
                <input type="checkbox" id={id} aria-describedby={hintId} checked={values[f.name] === true} onChange={(e) => set(f.name, e.currentTarget.checked)} /> {f.label}
              </label>
              {hint}
            </div>
          );
        }
        const label = f.required ? `${f.label} (required)` : f.label;
        let input;
        if (f.kind === 'enum') {
          input = (
            <select {...common} value={text} onChange={(e) => set(f.name, e.currentTarget.value)}>
              <option value="">{f.placeholder !== undefined ? `Default (${f.placeholder})` : 'Choose…'}</option>
              {(f.schema.enum ?? []).map((v) => (
                <option key={String(v)} value={String(v)}>
                  {String(v)}
                </option>
              ))}
            </select>
          );
        } else if (f.kind === 'map' || f.kind === 'map-of-lists' || f.kind === 'json') {
          input = <textarea {...common} rows={3} class="mono" spellcheck={false} placeholder={f.placeholder} value={text} onInput={(e) => set(f.name, e.currentTarget.value)} />;
        } else if (f.secret) {
          // Off: a browser that offered to remember a token as a site password would keep a second copy outside the service.
          input = <input {...common} type="password" autoComplete="off" placeholder={f.placeholder} value={text} onInput={(e) => set(f.name, e.currentTarget.value)} />;
        } else if (f.kind === 'integer' || f.kind === 'number') {
          input = (
            <input
              {...common}
              type="number"
              step={f.kind === 'integer' ? 1 : 'any'}
              min={f.schema.minimum}
              max={f.schema.maximum}
              placeholder={f.placeholder}
              value={text}
              onInput={(e) => set(f.name, e.currentTarget.value)}
            />
          );
        } else if (f.kind === 'url') {
          input = <input {...common} type="url" spellcheck={false} placeholder={f.placeholder} value={text} onInput={(e) => set(f.name, e.currentTarget.value)} />;
        } else {
          input = <input {...common} type="text" spellcheck={false} placeholder={f.placeholder} value={text} onInput={(e) => set(f.name, e.currentTarget.value)} />;
        }
        return (
          <div class="field" key={f.name}>
            <label for={id}>{label}</label>
            {input}
            {hint}
          </div>
        );
      })}
    </div>
  );
}

interface SecretsInput {
  /** The chosen alternative of the connector's secrets schema. */
  choice: number;
  choose(choice: number): void;
  /** The chosen alternative's schema; `{}` when the connector has none. */
  schema: JsonSchema;
  values: Values;
  setValues(values: Values): void;
  /** Empties the typed secrets, keeping the choice. */
  reset(): void;
}

/** The credentials a form types for `connector`: which alternative, and its values (choosing another starts it afresh). */
function useSecretsInput(connector: CatalogConnector): SecretsInput {
  const alternatives = alternativesOf(connector.secrets_schema);
  const [choice, setChoice] = useState(0);
  const [values, setValues] = useState<Values>(() => initialValues(alternatives[0]));
  const schema = alternatives[choice] ?? {};
  return {
    choice,
    choose: (i) => {
      setChoice(i);
      setValues(initialValues(alternatives[i]));
    },
    schema,
    values,
    setValues,
    reset: () => setValues(initialValues(schema)),
  };
}

/** The secrets of a connector: its one object, or a choice between its alternatives, then the chosen one's fields. */
function SecretsFields(props: { idPrefix: string; connector: CatalogConnector; secrets: SecretsInput; invalid: Set<string> }) {
  const { secrets } = props;
  const alternatives = alternativesOf(props.connector.secrets_schema);
  const chosen = alternatives[secrets.choice] ?? alternatives[0];
  return (
    <fieldset>
      <legend>Credentials</legend>
      <p class="hint">Stored encrypted and never shown again.</p>
      {alternatives.length > 1 ? (
        <div class="checks" role="radiogroup" aria-label="Kind of credentials">
          {alternatives.map((a, i) => (
            <label class="check" key={i}>
              <input type="radio" name={`${props.idPrefix}-kind`} checked={secrets.choice === i} onChange={() => secrets.choose(i)} />{' '}
              {Object.keys(a.properties ?? {})
                .map(labelOf)
                .join(' and ')}
            </label>
          ))}
        </div>
      ) : null}
      {chosen ? <SchemaFields idPrefix={props.idPrefix} schema={chosen} secret values={secrets.values} invalid={props.invalid} onChange={secrets.setValues} /> : null}
    </fieldset>
  );
}

/** A connection's name (optional until it exists, then required) and sync schedule, the same in the connect and edit forms. */
function ConnectionFields(props: {
  idPrefix: string;
  nameRequired: boolean;
  namePlaceholder?: string;
  name: string;
  onName(name: string): void;
  schedule: string;
  onSchedule(schedule: string): void;
}) {
  const p = props.idPrefix;
  return (
    <div class="form-grid">
      <InputField
        id={`${p}-name`}
        label={props.nameRequired ? 'Connection name' : 'Connection name (optional)'}
        hint="How this page and the sync log call the connection."
        type="text"
        maxLength={100}
        required={props.nameRequired}
        placeholder={props.namePlaceholder}
        value={props.name}
        onValue={props.onName}
      />
      <InputField
        id={`${p}-schedule`}
        label="Sync every … minutes (optional)"
        hint="5 to 10080. Empty: syncs run on demand and on the remote system's notifications only."
        type="number"
        min={5}
        max={10_080}
        step={1}
        value={props.schedule}
        onValue={props.onSchedule}
      />
    </div>
  );
}

/** The connector's settings fields, in their fieldset. */
function SettingsFields(props: { idPrefix: string; schema: JsonSchema; values: Values; invalid: Set<string>; onChange(values: Values): void }) {
  return (
    <fieldset>
      <legend>Settings</legend>
      <SchemaFields idPrefix={props.idPrefix} schema={props.schema} secret={false} values={props.values} invalid={props.invalid} onChange={props.onChange} />
    </fieldset>
  );
}

/** Connects the project through `connector`; the answer carries the webhook secret, which the page shows once. */
export function ConnectForm(props: { connector: CatalogConnector; onConnected(connection: IntegrationConnection): void }) {
  const { client } = useProject();
  const { connector } = props;
  const settingsSchema = (connector.settings_schema ?? {}) as JsonSchema;
  const [name, setName] = useState('');
  const [schedule, setSchedule] = useState('');
  const [settings, setSettings] = useState<Values>(() => initialValues(settingsSchema));
  const secrets = useSecretsInput(connector);
  const request = useRequest();
  const p = `connect-${connector.id}`;

  const connect = (event: Event) => {
    event.preventDefault();
    return request.submit(async () => {
      const minutes = schedule.trim();
      const created = await client.connect(connector.id, {
        ...(name.trim() ? { name: name.trim() } : {}),
        settings: valuesToObject(settingsSchema, settings, 'settings'),
        secrets: valuesToObject(secrets.schema, secrets.values, 'secrets'),
        ...(minutes ? { schedule_minutes: Number(minutes) } : {}),
      });
      setName('');
      setSchedule('');
      setSettings(initialValues(settingsSchema));
      secrets.reset();
      props.onConnected(created);
    });
  };

  return (
    <form class="card form" onSubmit={(e) => void connect(e)} aria-labelledby={`${p}-title`}>
      <h2 id={`${p}-title`}>Connect {connector.name}</h2>
      <p class="hint">Fields marked “required” must be filled in; empty fields take the default shown in them.</p>
      <ConnectionFields idPrefix={p} nameRequired={false} namePlaceholder={connector.name} name={name} onName={setName} schedule={schedule} onSchedule={setSchedule} />
      <SettingsFields idPrefix={`${p}-settings`} schema={settingsSchema} values={settings} invalid={problemFields(request.error, 'settings')} onChange={setSettings} />
      <SecretsFields idPrefix={`${p}-secrets`} connector={connector} secrets={secrets} invalid={problemFields(request.error, 'secrets')} />
      <ErrorNotice error={request.error} title="Not connected" />
      <button type="submit" disabled={request.busy}>
        {request.busy ? 'Connecting…' : `Connect ${connector.name}`}
      </button>
    </form>
  );
}

/** Replaces a connection's credentials (rotation): the old ones are forgotten at once, and the next sync uses these. */
export function CredentialsForm(props: { connector: CatalogConnector; connection: IntegrationConnection; onRotated(connection: IntegrationConnection): void; onCancel(): void }) {
  const { client } = useProject();
  const { connector, connection } = props;
  const secrets = useSecretsInput(connector);
  const request = useRequest();

  const rotate = (event: Event) => {
    event.preventDefault();
    return request.submit(async () => {
      const updated = await client.updateConnection(connector.id, connection.id, { secrets: valuesToObject(secrets.schema, secrets.values, 'secrets') });
      secrets.reset();
      props.onRotated(updated);
    });
  };

  return (
    <form class="form" onSubmit={(e) => void rotate(e)} aria-label={`New credentials for ${connection.name}`}>
      <p class="hint">The old credentials are forgotten as soon as these are saved; the next sync uses the new ones.</p>
      <SecretsFields idPrefix={`rotate-${connection.id}`} connector={connector} secrets={secrets} invalid={problemFields(request.error, 'secrets')} />
      <ErrorNotice error={request.error} title="Credentials not replaced" />
      <FormActions busy={request.busy} label="Replace credentials" onCancel={props.onCancel} />
    </form>
  );
}

/**
 * The settings patch: what the form holds, plus a null for each setting stored before and now left empty (or back at
 * its default), which the API reads as "remove it".
 */
export function settingsPatch(schema: JsonSchema, values: Values, stored: Record<string, unknown>): Record<string, unknown> {
  const patch = valuesToObject(schema, values, 'settings');
  for (const field of fieldsOf(schema, false)) if (!(field.name in patch) && stored[field.name] !== undefined) patch[field.name] = null;
  return patch;
}

/** The settings a 422 `secrets_required` names: moving them to another host needs credentials for it in the same PATCH. */
function movedSettings(error: unknown): string[] {
  if (!(error instanceof ApiError) || error.code !== 'secrets_required') return [];
  const named = (error.body as { settings?: unknown } | null)?.settings;
  return Array.isArray(named) ? named.filter((n): n is string => typeof n === 'string') : [];
}

/**
 * Edits a connection's name, schedule and settings. When the API refuses a move to another host for want of
 * credentials, the credentials fields join the form and the next save sends both.
 */
export function SettingsForm(props: { connector: CatalogConnector; connection: IntegrationConnection; onSaved(connection: IntegrationConnection): void; onCancel(): void }) {
  const { client } = useProject();
  const { connector, connection } = props;
  const settingsSchema = (connector.settings_schema ?? {}) as JsonSchema;
  const [name, setName] = useState(connection.name);
  const [schedule, setSchedule] = useState(connection.schedule_minutes === null ? '' : String(connection.schedule_minutes));
  const [settings, setSettings] = useState<Values>(() => valuesOf(settingsSchema, connection.settings));
  const [withSecrets, setWithSecrets] = useState(false);
  const secrets = useSecretsInput(connector);
  const request = useRequest();
  const p = `edit-${connection.id}`;
  const moved = movedSettings(request.error);

  const save = (event: Event) => {
    event.preventDefault();
    return request.submit(async () => {
      const minutes = schedule.trim();
      const updated = await client
        .updateConnection(connector.id, connection.id, {
          ...(name.trim() ? { name: name.trim() } : {}),
          settings: settingsPatch(settingsSchema, settings, connection.settings),
          schedule_minutes: minutes ? Number(minutes) : null,
          ...(withSecrets ? { secrets: valuesToObject(secrets.schema, secrets.values, 'secrets') } : {}),
        })
        .catch((failure: unknown) => {
          if (movedSettings(failure).length > 0) setWithSecrets(true);
          throw failure;
        });
      props.onSaved(updated);
    });
  };

  const invalid = problemFields(request.error, 'settings');
  for (const m of moved) invalid.add(m);
  return (
    <form class="form" onSubmit={(e) => void save(e)} aria-label={`Settings of ${connection.name}`}>
      <p class="hint">Empty fields go back to the default shown in them. Moving an address to another host needs the credentials for that host.</p>
      <ConnectionFields idPrefix={p} nameRequired name={name} onName={setName} schedule={schedule} onSchedule={setSchedule} />
      <SettingsFields idPrefix={`${p}-settings`} schema={settingsSchema} values={settings} invalid={invalid} onChange={setSettings} />
      {withSecrets ? <SecretsFields idPrefix={`${p}-secrets`} connector={connector} secrets={secrets} invalid={problemFields(request.error, 'secrets')} /> : null}
      <ErrorNotice error={request.error} title="Settings not saved" />
      <FormActions busy={request.busy} label={withSecrets ? 'Save settings and credentials' : 'Save settings'} onCancel={props.onCancel} />
    </form>
  );
}
