/**
 * The storage-target forms: adding an S3-compatible or Azure Blob target, editing a target's settings (prefilled from
 * the stored ones; credentials are not shown), and replacing its credentials (typed in, sent once, never shown again).
 */
import { useState } from 'preact/hooks';
import type { StorageTarget, StorageTargetInput, StorageTargetPatch } from '../../../../src/client/types.js';
import { ErrorNotice, FormActions, InputField } from '../components.js';
import { useProject } from '../context.js';
import { useRequest } from '../hooks.js';

type Kind = StorageTarget['kind'];

interface Secrets {
  accessKeyId: string;
  secretAccessKey: string;
  azureKind: 'connection_string' | 'sas_url';
  azureSecret: string;
}

const NO_SECRETS: Secrets = { accessKeyId: '', secretAccessKey: '', azureKind: 'connection_string', azureSecret: '' };
const DEFAULT_PATH_TEMPLATE = '{locale}.json';

// A secret key is sent as typed: its spaces may be part of it.
const s3Credentials = (s: Secrets) => ({ access_key_id: s.accessKeyId.trim(), secret_access_key: s.secretAccessKey });
const azureCredentials = (s: Secrets) => (s.azureKind === 'connection_string' ? { connection_string: s.azureSecret.trim() } : { sas_url: s.azureSecret.trim() });

/**
 * The secret inputs of one kind of target. They are password inputs with autocomplete off: a browser that offered to
 * remember a bucket key as a site password would keep a second copy of it outside the service.
 */
function CredentialFields(props: { idPrefix: string; kind: Kind; secrets: Secrets; onChange(secrets: Secrets): void }) {
  const { idPrefix: p, kind, secrets, onChange } = props;
  const set = (change: Partial<Secrets>) => onChange({ ...secrets, ...change });
  if (kind === 's3') {
    return (
      <div class="form-grid">
        <InputField
          id={`${p}-access-key-id`}
          label="Access key id"
          type="text"
          required
          autoComplete="off"
          spellcheck={false}
          value={secrets.accessKeyId}
          onValue={(v) => set({ accessKeyId: v })}
        />
        <InputField
          id={`${p}-secret-access-key`}
          label="Secret access key"
          type="password"
          required
          autoComplete="off"
          value={secrets.secretAccessKey}
          onValue={(v) => set({ secretAccessKey: v })}
        />
      </div>
    );
  }
  const isConnectionString = secrets.azureKind === 'connection_string';
  return (
    <>
      <fieldset>
        <legend>Credentials</legend>
        <div class="checks">
          <label class="check">
            <input type="radio" name={`${p}-azure-kind`} checked={isConnectionString} onChange={() => set({ azureKind: 'connection_string', azureSecret: '' })} /> Connection string
          </label>
          <label class="check">
            <input type="radio" name={`${p}-azure-kind`} checked={!isConnectionString} onChange={() => set({ azureKind: 'sas_url', azureSecret: '' })} /> SAS URL
          </label>
        </div>
      </fieldset>
      <InputField
        id={`${p}-azure-secret`}
        label={isConnectionString ? 'Connection string' : 'SAS URL'}
        hint={isConnectionString ? 'As the Azure portal gives it under Access keys (AccountName=…;AccountKey=…).' : 'The account or container URL with a SAS token that may create and write blobs.'}
        type="password"
        required
        autoComplete="off"
        value={secrets.azureSecret}
        onValue={(v) => set({ azureSecret: v })}
      />
    </>
  );
}

/** Where a target writes, as the form holds it: the S3 fields or the Azure ones, by kind. */
interface Location {
  endpoint: string;
  region: string;
  bucket: string;
  pathStyle: boolean;
  container: string;
  accountUrl: string;
}

/** How a target lays out a release, as the form holds it. */
interface Layout {
  prefix: string;
  pathTemplate: string;
  filesTemplate: string;
  cacheControl: string;
}

const NEW_LOCATION: Location = { endpoint: '', region: 'us-east-1', bucket: '', pathStyle: false, container: '', accountUrl: '' };
const NEW_LAYOUT: Layout = { prefix: '', pathTemplate: DEFAULT_PATH_TEMPLATE, filesTemplate: '', cacheControl: '' };

/** A stored target as the edit form's input. */
function locationOf(t: StorageTarget): Location {
  return {
    endpoint: t.s3?.endpoint ?? '',
    region: t.s3?.region ?? 'us-east-1',
    bucket: t.s3?.bucket ?? '',
    pathStyle: t.s3?.force_path_style ?? false,
    container: t.azure_blob?.container ?? '',
    accountUrl: t.azure_blob?.account_url ?? '',
  };
}

function layoutOf(t: StorageTarget): Layout {
  // Stored with a trailing '/', typed without one.
  return { prefix: t.prefix.replace(/\/$/, ''), pathTemplate: t.path_template, filesTemplate: t.files_template ?? '', cacheControl: t.cache_control ?? '' };
}

/** The layout fields of a PATCH: every one is sent, an emptied optional one as null so the stored value goes. */
function layoutPatch(l: Layout) {
  return { prefix: l.prefix.trim(), path_template: l.pathTemplate.trim() || DEFAULT_PATH_TEMPLATE, files_template: l.filesTemplate.trim() || null, cache_control: l.cacheControl.trim() || null };
}

function LocationFields(props: { idPrefix: string; kind: Kind; location: Location; onChange(location: Location): void }) {
  const { idPrefix: p, kind, location: l, onChange } = props;
  const set = (change: Partial<Location>) => onChange({ ...l, ...change });
  if (kind === 'azure_blob') {
    return (
      <div class="form-grid">
        <InputField id={`${p}-container`} label="Container" type="text" required minLength={3} maxLength={63} value={l.container} onValue={(v) => set({ container: v })} />
        <InputField
          id={`${p}-account-url`}
          label="Account URL (optional)"
          hint="The account's blob endpoint; empty: wherever the credentials point."
          type="url"
          value={l.accountUrl}
          onValue={(v) => set({ accountUrl: v })}
        />
      </div>
    );
  }
  return (
    <>
      <div class="form-grid">
        <InputField
          id={`${p}-endpoint`}
          label="Endpoint (optional)"
          hint="Empty for AWS S3; e.g. https://<account>.r2.cloudflarestorage.com or http://minio:9000."
          type="url"
          value={l.endpoint}
          onValue={(v) => set({ endpoint: v })}
        />
        <InputField id={`${p}-region`} label="Region" hint="'auto' for Cloudflare R2." type="text" required maxLength={64} value={l.region} onValue={(v) => set({ region: v })} />
        <InputField id={`${p}-bucket`} label="Bucket" type="text" required minLength={3} maxLength={63} value={l.bucket} onValue={(v) => set({ bucket: v })} />
      </div>
      <label class="check">
        <input type="checkbox" checked={l.pathStyle} onChange={(e) => set({ pathStyle: e.currentTarget.checked })} /> Path-style addressing (the bucket in the path, as MinIO and most
        self-hosted services need)
      </label>
    </>
  );
}

function LayoutFields(props: { idPrefix: string; layout: Layout; onChange(layout: Layout): void }) {
  const { idPrefix: p, layout: l, onChange } = props;
  const set = (change: Partial<Layout>) => onChange({ ...l, ...change });
  return (
    <div class="form-grid">
      <InputField
        id={`${p}-prefix`}
        label="Prefix (optional)"
        hint="The folder for this project's files, e.g. i18n/web."
        type="text"
        maxLength={500}
        value={l.prefix}
        onValue={(v) => set({ prefix: v })}
      />
      <InputField
        id={`${p}-path-template`}
        label="Path template"
        hint="Where each locale's JSON goes under the prefix: {locale}, {locale_underscore}, {android_locale}, {apple_locale}, {two_letters}. With {hash} (e.g. {locale}.{hash}.json) a changed locale is a new object and the manifest switches releases at once; plain paths are overwritten in place."
        type="text"
        required
        maxLength={500}
        value={l.pathTemplate}
        onValue={(v) => set({ pathTemplate: v })}
      />
      <InputField
        id={`${p}-files-template`}
        label="Files template (optional)"
        hint="Where each source file's translations go when releases include files: {dir}, {name}, {ext}, {locale}, {hash}… Empty: files/<the pulled path>."
        type="text"
        maxLength={500}
        value={l.filesTemplate}
        onValue={(v) => set({ filesTemplate: v })}
      />
      <InputField
        id={`${p}-cache-control`}
        label="Cache-Control (optional)"
        hint="Stored with every object, e.g. public, max-age=300."
        type="text"
        maxLength={200}
        value={l.cacheControl}
        onValue={(v) => set({ cacheControl: v })}
      />
    </div>
  );
}

/** Adds a target; the service keeps the credentials encrypted, so it answers 503 secret_key_missing until the operator sets PARLANCE_SECRET_KEY. */
export function StorageTargetForm(props: { onCreated(target: StorageTarget): void }) {
  const { client } = useProject();
  const [kind, setKind] = useState<Kind>('s3');
  const [name, setName] = useState('');
  const [location, setLocation] = useState<Location>(NEW_LOCATION);
  const [layout, setLayout] = useState<Layout>(NEW_LAYOUT);
  const [secrets, setSecrets] = useState<Secrets>(NO_SECRETS);
  const request = useRequest();

  const create = (event: Event) => {
    event.preventDefault();
    return request.submit(async () => {
      const l = location;
      const fields = {
        name: name.trim(),
        prefix: layout.prefix.trim(),
        path_template: layout.pathTemplate.trim() || DEFAULT_PATH_TEMPLATE,
        ...(layout.filesTemplate.trim() ? { files_template: layout.filesTemplate.trim() } : {}),
        ...(layout.cacheControl.trim() ? { cache_control: layout.cacheControl.trim() } : {}),
      };
      const input: StorageTargetInput =
        kind === 's3'
          ? {
              ...fields,
              kind,
              s3: { ...(l.endpoint.trim() ? { endpoint: l.endpoint.trim() } : {}), region: l.region.trim() || 'us-east-1', bucket: l.bucket.trim(), force_path_style: l.pathStyle },
              credentials: s3Credentials(secrets),
            }
          : { ...fields, kind, azure_blob: { container: l.container.trim(), ...(l.accountUrl.trim() ? { account_url: l.accountUrl.trim() } : {}) }, credentials: azureCredentials(secrets) };
      const created = await client.createStorageTarget(input);
      setName('');
      setLocation({ ...location, bucket: '', container: '' });
      setLayout({ ...layout, prefix: '' });
      setSecrets(NO_SECRETS);
      props.onCreated(created);
    });
  };

  return (
    <form class="card form" onSubmit={(e) => void create(e)} aria-labelledby="target-form-title">
      <h3 id="target-form-title">Add a storage target</h3>
      <fieldset>
        <legend>Kind</legend>
        <div class="checks">
          <label class="check">
            <input type="radio" name="target-kind" checked={kind === 's3'} onChange={() => setKind('s3')} /> S3-compatible (AWS S3, Cloudflare R2, MinIO…)
          </label>
          <label class="check">
            <input type="radio" name="target-kind" checked={kind === 'azure_blob'} onChange={() => setKind('azure_blob')} /> Azure Blob Storage
          </label>
        </div>
      </fieldset>
      <InputField
        id="target-name"
        label="Name"
        hint="How this page and the sync log call it, e.g. “Production bucket”."
        type="text"
        required
        maxLength={100}
        value={name}
        onValue={setName}
      />
      <LocationFields idPrefix="target" kind={kind} location={location} onChange={setLocation} />
      <CredentialFields idPrefix="target" kind={kind} secrets={secrets} onChange={setSecrets} />
      <LayoutFields idPrefix="target" layout={layout} onChange={setLayout} />
      <ErrorNotice error={request.error} title="Target not added" />
      <button type="submit" disabled={request.busy}>
        {request.busy ? 'Adding…' : 'Add target'}
      </button>
    </form>
  );
}

/**
 * Edits a target's name, where it writes and how it lays out a release, prefilled from the stored settings. Every
 * field is sent, an emptied optional one as null; the credentials are not part of it (rotating them is its own form).
 */
export function EditTargetForm(props: { target: StorageTarget; onSaved(target: StorageTarget): void; onCancel(): void }) {
  const { client } = useProject();
  const { target } = props;
  const [name, setName] = useState(target.name);
  const [location, setLocation] = useState<Location>(() => locationOf(target));
  const [layout, setLayout] = useState<Layout>(() => layoutOf(target));
  const request = useRequest();
  const p = `edit-${target.id}`;

  const save = (event: Event) => {
    event.preventDefault();
    return request.submit(async () => {
      const l = location;
      const patch: StorageTargetPatch = {
        name: name.trim(),
        ...layoutPatch(layout),
        ...(target.kind === 's3'
          ? { s3: { endpoint: l.endpoint.trim() || null, region: l.region.trim() || 'us-east-1', bucket: l.bucket.trim(), force_path_style: l.pathStyle } }
          : { azure_blob: { container: l.container.trim(), account_url: l.accountUrl.trim() || null } }),
      };
      props.onSaved(await client.updateStorageTarget(target.id, patch));
    });
  };

  return (
    <form class="form" onSubmit={(e) => void save(e)} aria-label={`Settings of ${target.name}`}>
      <p class="hint">Changes apply from the next sync. The credentials stay as they are ({target.credentials.hint}); “Rotate credentials” replaces them.</p>
      <InputField id={`${p}-name`} label="Name" type="text" required maxLength={100} value={name} onValue={setName} />
      <LocationFields idPrefix={p} kind={target.kind} location={location} onChange={setLocation} />
      <LayoutFields idPrefix={p} layout={layout} onChange={setLayout} />
      <ErrorNotice error={request.error} title="Settings not saved" />
      <FormActions busy={request.busy} label="Save target" onCancel={props.onCancel} />
    </form>
  );
}

/** Replaces a target's credentials (rotation): the service forgets the old ones at once, and the next sync uses these. */
export function CredentialsForm(props: { target: StorageTarget; onRotated(target: StorageTarget): void; onCancel(): void }) {
  const { client } = useProject();
  const { target } = props;
  const [secrets, setSecrets] = useState<Secrets>(NO_SECRETS);
  const request = useRequest();

  const rotate = (event: Event) => {
    event.preventDefault();
    return request.submit(async () => {
      const updated = await client.updateStorageTarget(target.id, { credentials: target.kind === 's3' ? s3Credentials(secrets) : azureCredentials(secrets) });
      setSecrets(NO_SECRETS);
      props.onRotated(updated);
    });
  };

  return (
    <form class="form" onSubmit={(e) => void rotate(e)} aria-label={`New credentials for ${target.name}`}>
      <p class="hint">Now: {target.credentials.hint}. The old credentials are forgotten as soon as these are saved.</p>
      <CredentialFields idPrefix={`rotate-${target.id}`} kind={target.kind} secrets={secrets} onChange={setSecrets} />
      <ErrorNotice error={request.error} title="Credentials not replaced" />
      <FormActions busy={request.busy} label="Replace credentials" onCancel={props.onCancel} />
    </form>
  );
}
