/** Upload a source file (a push): choose it, name its path, then follow the batch to the end. */
import { useState } from 'preact/hooks';
import type { Batch } from '../../../../src/client/types.js';
import { FORMAT_IDS } from '../../../../src/core/formats/codec.js';
import { ErrorNotice, Field, ProjectPage } from '../components.js';
import { useAccount, useProject } from '../context.js';
import { randomId, useRequest } from '../hooks.js';
import { BatchLive } from './batches.js';

export function UploadPage() {
  return (
    <ProjectPage
      title="Upload a source file"
      ability="push"
      intro={
        <p>
          Parlance reads the file, compares every key with what it holds, and translates only what was added or changed into every target language. Pushing the same
          file again costs nothing.
        </p>
      }
    >
      <UploadForm />
    </ProjectPage>
  );
}

function UploadForm() {
  const { client } = useProject();
  const { announce } = useAccount();
  const [file, setFile] = useState<File>();
  const [path, setPath] = useState('');
  const [pathEdited, setPathEdited] = useState(false);
  const [format, setFormat] = useState('');
  const request = useRequest();
  const [batch, setBatch] = useState<Batch>();

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!file) return;
    await request.submit(async () => {
      setBatch(undefined);
      const content = new Uint8Array(await file.arrayBuffer());
      const queued = await client.pushFile({ path: path.trim() || file.name, content, ...(format ? { format } : {}), idempotencyKey: randomId() });
      announce(`Pushed ${queued.path ?? file.name}: ${queued.rows.total} rows queued.`);
      setBatch(queued);
    });
  };

  return (
    <>
      <form class="card form" onSubmit={(e) => void submit(e)}>
        <Field id="upload-file" label="Source file">
          <input
            id="upload-file"
            type="file"
            required
            onChange={(e) => {
              const chosen = e.currentTarget.files?.[0];
              setFile(chosen);
              if (chosen && !pathEdited) setPath(chosen.name);
            }}
          />
        </Field>
        <Field id="upload-path" label="Path in your repository" hint="Where the file lives, e.g. locales/en.json; it names the file in Parlance. Defaults to the file name.">
          <input
            id="upload-path"
            type="text"
            aria-describedby="upload-path-hint"
            value={path}
            onInput={(e) => {
              setPath(e.currentTarget.value);
              setPathEdited(true);
            }}
          />
        </Field>
        <Field id="upload-format" label="Format" hint="Leave on automatic to detect it from the file name and contents.">
          <select id="upload-format" aria-describedby="upload-format-hint" value={format} onChange={(e) => setFormat(e.currentTarget.value)}>
            <option value="">Automatic</option>
            {FORMAT_IDS.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </Field>
        <ErrorNotice error={request.error} title="Not pushed" />
        <button type="submit" disabled={request.busy || !file}>
          {request.busy ? 'Pushing…' : 'Push'}
        </button>
      </form>
      {batch ? <BatchLive key={batch.id} initial={batch} /> : null}
    </>
  );
}
