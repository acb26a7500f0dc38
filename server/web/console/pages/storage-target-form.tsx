/** The storage-target forms: adding an S3-compatible or Azure Blob target, and replacing a target's credentials (typed in, sent once, never shown again). */
import { useState } from 'preact/hooks';
import type { StorageTarget, StorageTargetInput } from '../../../../src/client/types.js';
import { ErrorNotice, Field } from '../components.js';
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
        <Field id={`${p}-access-key-id`} label="Access key id">
          <input id={`${p}-access-key-id`} type="text" required autoComplete="off" spellcheck={false} value={secrets.accessKeyId} onInput={(e) => set({ accessKeyId: e.currentTarget.value })} />
        </Field>
        <Field id={`${p}-secret-access-key`} label="Secret access key">
          <input id={`${p}-secret-access-key`} type="password" required autoComplete="off" value={secrets.secretAccessKey} onInput={(e) => set({ secretAccessKey: e.currentTarget.value })} />
        </Field>
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
      <Field
        id={`${p}-azure-secret`}
        label={isConnectionString ? 'Connection string' : 'SAS URL'}
        hint={isConnectionString ? 'As the Azure portal gives it under Access keys (AccountName=…;AccountKey=…).' : 'The account or container URL with a SAS token that may create and write blobs.'}
      >
        <input
          id={`${p}-azure-secret`}
          type="password"
          required
          autoComplete="off"
          aria-describedby={`${p}-azure-secret-hint`}
          value={secrets.azureSecret}
          onInput={(e) => set({ azureSecret: e.currentTarget.value })}
        />
      </Field>
    </>
  );
}

/** Adds a target; the service keeps the credentials encrypted, so it answers 503 secret_key_missing until the operator sets PARLANCE_SECRET_KEY. */
export function StorageTargetForm(props: { onCreated(target: StorageTarget): void }) {
  const { client } = useProject();
  const [kind, setKind] = useState<Kind>('s3');
  const [name, setName] = useState('');
  const [endpoint, setEndpoint] = useState('');
  const [region, setRegion] = useState('us-east-1');
  const [bucket, setBucket] = useState('');
  const [pathStyle, setPathStyle] = useState(false);
  const [container, setContainer] = useState('');
  const [prefix, setPrefix] = useState('');
  const [pathTemplate, setPathTemplate] = useState(DEFAULT_PATH_TEMPLATE);
  const [secrets, setSecrets] = useState<Secrets>(NO_SECRETS);
  const request = useRequest();

  const create = (event: Event) => {
    event.preventDefault();
    return request.submit(async () => {
      const layout = { name: name.trim(), prefix: prefix.trim(), path_template: pathTemplate.trim() || DEFAULT_PATH_TEMPLATE };
      const input: StorageTargetInput =
        kind === 's3'
          ? {
              ...layout,
              kind,
              s3: { ...(endpoint.trim() ? { endpoint: endpoint.trim() } : {}), region: region.trim() || 'us-east-1', bucket: bucket.trim(), force_path_style: pathStyle },
              credentials: s3Credentials(secrets),
            }
          : { ...layout, kind, azure_blob: { container: container.trim() }, credentials: azureCredentials(secrets) };
      const created = await client.createStorageTarget(input);
      setName('');
      setBucket('');
      setContainer('');
      setPrefix('');
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
      <Field id="target-name" label="Name" hint="How this page and the sync log call it, e.g. “Production bucket”.">
        <input id="target-name" type="text" required maxLength={100} aria-describedby="target-name-hint" value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </Field>
      {kind === 's3' ? (
        <>
          <div class="form-grid">
            <Field id="target-endpoint" label="Endpoint (optional)" hint="Empty for AWS S3; e.g. https://<account>.r2.cloudflarestorage.com or http://minio:9000.">
              <input id="target-endpoint" type="url" aria-describedby="target-endpoint-hint" value={endpoint} onInput={(e) => setEndpoint(e.currentTarget.value)} />
            </Field>
            <Field id="target-region" label="Region" hint="'auto' for Cloudflare R2.">
              <input id="target-region" type="text" required maxLength={64} aria-describedby="target-region-hint" value={region} onInput={(e) => setRegion(e.currentTarget.value)} />
            </Field>
            <Field id="target-bucket" label="Bucket">
              <input id="target-bucket" type="text" required minLength={3} maxLength={63} value={bucket} onInput={(e) => setBucket(e.currentTarget.value)} />
            </Field>
          </div>
          <label class="check">
            <input type="checkbox" checked={pathStyle} onChange={(e) => setPathStyle(e.currentTarget.checked)} /> Path-style addressing (the bucket in the path, as MinIO and most
            self-hosted services need)
          </label>
        </>
      ) : (
        <Field id="target-container" label="Container">
          <input id="target-container" type="text" required minLength={3} maxLength={63} value={container} onInput={(e) => setContainer(e.currentTarget.value)} />
        </Field>
      )}
      <CredentialFields idPrefix="target" kind={kind} secrets={secrets} onChange={setSecrets} />
      <div class="form-grid">
        <Field id="target-prefix" label="Prefix (optional)" hint="The folder for this project's files, e.g. i18n/web.">
          <input id="target-prefix" type="text" maxLength={500} aria-describedby="target-prefix-hint" value={prefix} onInput={(e) => setPrefix(e.currentTarget.value)} />
        </Field>
        <Field id="target-path-template" label="Path template" hint="Where each locale's JSON goes under the prefix: {locale}, {locale_underscore}, {android_locale}, {apple_locale}, {two_letters}.">
          <input
            id="target-path-template"
            type="text"
            required
            maxLength={500}
            aria-describedby="target-path-template-hint"
            value={pathTemplate}
            onInput={(e) => setPathTemplate(e.currentTarget.value)}
          />
        </Field>
      </div>
      <ErrorNotice error={request.error} title="Target not added" />
      <button type="submit" disabled={request.busy}>
        {request.busy ? 'Adding…' : 'Add target'}
      </button>
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
      <div class="actions">
        <button type="submit" disabled={request.busy}>
          {request.busy ? 'Saving…' : 'Replace credentials'}
        </button>
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
