/** Webhooks: subscriptions (the signing secret is shown once), test deliveries, and each one's delivery log with redelivery. */
import { useState } from 'preact/hooks';
import type { Webhook, WebhookDelivery } from '../../../../src/client/types.js';
import { DataTable, ErrorNotice, InputField, Loading, Pager, ProjectPage, SecretOnce, SuccessNotice } from '../components.js';
import { useAccount, useProject } from '../context.js';
import { formatDate } from '../format.js';
import { useCursorPages, useListActions, useLoad, useRequest } from '../hooks.js';
import { projectHref } from '../router.js';

export function WebhooksPage(props: { webhookId: string | undefined }) {
  return (
    <ProjectPage
      title={props.webhookId ? 'Webhook deliveries' : 'Webhooks'}
      ability="manage"
      intro={
        props.webhookId ? null : (
          <p>
            Parlance posts signed events (Standard Webhooks: <code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>) to your URL and retries
            failed deliveries for about three days.
          </p>
        )
      }
    >
      {props.webhookId ? <Deliveries webhookId={props.webhookId} /> : <Webhooks />}
    </ProjectPage>
  );
}

function Webhooks() {
  const { client, projectId } = useProject();
  const { announce } = useAccount();
  const data = useLoad(async () => {
    const [hooks, events] = await Promise.all([client.webhooks(), client.webhookEvents()]);
    return { hooks, events };
  }, [client]);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<ReadonlySet<string>>(new Set());
  const { request, result, run } = useListActions(data.reload);
  const [created, setCreated] = useState<Webhook & { secret: string }>();

  const create = (event: Event) => {
    event.preventDefault();
    return request.submit(async () => {
      setCreated(undefined);
      const hook = await client.createWebhook({ url: url.trim(), ...(events.size ? { events: [...events] } : {}), ...(description.trim() ? { description: description.trim() } : {}) });
      setCreated(hook);
      setUrl('');
      setDescription('');
      setEvents(new Set());
      announce('Webhook created. Copy its signing secret now.');
      data.reload();
    });
  };

  const toggleEvent = (type: string) =>
    setEvents((current) => {
      const next = new Set(current);
      if (next.has(type)) next.delete(type);
      else next.add(type);
      return next;
    });

  if (data.loading && !data.data) return <Loading what="webhooks" />;
  if (!data.data) return <ErrorNotice error={data.error} title="Webhooks unavailable" />;
  return (
    <>
      <form class="card form" onSubmit={(e) => void create(e)} aria-labelledby="hook-form-title">
        <h2 id="hook-form-title">Add a webhook</h2>
        <InputField id="hook-url" label="URL" hint="An https:// address that answers 2xx quickly." type="url" required value={url} onValue={setUrl} />
        <InputField id="hook-description" label="Description (optional)" type="text" value={description} onValue={setDescription} />
        <fieldset>
          <legend>Events (none chosen: every event)</legend>
          <div class="check-grid">
            {data.data.events.map((e) => (
              <label key={e.type} class="check" title={e.description}>
                <input type="checkbox" checked={events.has(e.type)} onChange={() => toggleEvent(e.type)} /> <span class="mono">{e.type}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <button type="submit" disabled={request.busy}>
          {request.busy ? 'Creating…' : 'Create webhook'}
        </button>
      </form>
      {created ? <SecretOnce label="Signing secret" value={created.secret} note="Shown only this once: your receiver verifies signatures with it. Rotating it later keeps the old one valid for 24 hours." /> : null}
      <ErrorNotice error={request.error} title="Not done" />
      <SuccessNotice text={result} />
      {data.data.hooks.length === 0 ? <p>No webhooks yet.</p> : null}
      {data.data.hooks.length > 0 ? (
        <DataTable label="Webhooks" columns={['URL', 'Events', 'State', 'Created']} actions>
          {data.data.hooks.map((h) => (
            <tr key={h.id}>
              <th scope="row">
                <a href={projectHref(projectId, 'webhooks', h.id)} class="mono">
                  {h.url}
                </a>
                {h.description ? <div class="muted">{h.description}</div> : null}
              </th>
              <td>{h.events.length ? h.events.join(', ') : 'every event'}</td>
              <td>
                {h.enabled ? <span class="badge state-human">enabled</span> : <span class="badge state-held">disabled</span>}
                {h.disabled_reason ? <div class="muted">{h.disabled_reason}</div> : null}
                {h.failing_since ? <div class="warn">failing since {formatDate(h.failing_since)}</div> : null}
              </td>
              <td>{formatDate(h.created_at)}</td>
              <td class="row-actions">
                <button type="button" class="small secondary" onClick={() => void run('Test', () => client.testWebhook(h.id), `Test delivery sent to ${h.url}.`)} aria-label={`Send a test delivery to ${h.url}`}>
                  Test
                </button>
                <button
                  type="button"
                  class="small secondary"
                  onClick={() => void run(h.enabled ? 'Disable' : 'Enable', () => client.updateWebhook(h.id, { enabled: !h.enabled }), `${h.url} ${h.enabled ? 'disabled' : 'enabled'}.`)}
                  aria-label={`${h.enabled ? 'Disable' : 'Enable'} ${h.url}`}
                >
                  {h.enabled ? 'Disable' : 'Enable'}
                </button>
                <a class="button-link small secondary" href={projectHref(projectId, 'webhooks', h.id)} aria-label={`Deliveries of ${h.url}`}>
                  Deliveries
                </a>
                <button
                  type="button"
                  class="small danger"
                  onClick={() => window.confirm(`Delete the webhook for ${h.url}?`) && void run('Delete', () => client.deleteWebhook(h.id), `Webhook ${h.url} deleted.`)}
                  aria-label={`Delete ${h.url}`}
                >
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      ) : null}
    </>
  );
}

function Deliveries(props: { webhookId: string }) {
  const { client, projectId } = useProject();
  const { announce } = useAccount();
  const paging = useCursorPages();
  const { cursor } = paging;
  const page = useLoad(() => client.webhookDeliveries(props.webhookId, { limit: 25, ...(cursor ? { cursor } : {}) }), [client, props.webhookId, cursor]);
  const hook = useLoad(async () => (await client.webhooks()).find((h) => h.id === props.webhookId), [client, props.webhookId]);
  const request = useRequest();

  const redeliver = (delivery: WebhookDelivery) =>
    request.attempt(async () => {
      await client.redeliver(props.webhookId, delivery.id);
      announce(`Delivery ${delivery.id} queued again.`);
      page.reload();
    });

  return (
    <>
      <p>
        {hook.data ? (
          <>
            To <span class="mono">{hook.data.url}</span>
            {hook.data.enabled ? '' : ' (disabled)'} ·{' '}
          </>
        ) : null}
        <a href={projectHref(projectId, 'webhooks')}>All webhooks</a>
      </p>
      <ErrorNotice error={request.error ?? page.error} title="Deliveries" />
      {page.loading && !page.data ? <Loading what="deliveries" /> : null}
      {page.data && page.data.items.length === 0 ? <p>No deliveries yet. Send a test from the webhook list.</p> : null}
      {page.data && page.data.items.length > 0 ? (
        <DataTable label="Deliveries" columns={['Event', 'Status', 'Attempts', 'Last answer', 'Next attempt', 'Created']} actions>
          {page.data.items.map((d) => (
            <tr key={d.id}>
              <th scope="row">
                <span class="mono">{d.event_type}</span>
                <div class="muted mono">{d.event_id}</div>
              </th>
              <td>
                <span class={`badge delivery-${d.status}`}>{d.status}</span>
              </td>
              <td>
                <details>
                  <summary>{d.attempts.length}</summary>
                  <ol class="attempts">
                    {d.attempts.map((a) => (
                      <li key={a.attempt}>
                        {formatDate(a.started_at)}: {a.status ?? 'no answer'} in {a.latency_ms} ms{a.error ? ` (${a.error})` : ''}
                      </li>
                    ))}
                  </ol>
                </details>
              </td>
              <td>{d.last_status ?? d.last_error ?? '—'}</td>
              <td>{formatDate(d.next_attempt_at)}</td>
              <td>{formatDate(d.created_at)}</td>
              <td>
                <button type="button" class="small secondary" onClick={() => void redeliver(d)} aria-label={`Redeliver ${d.event_type} ${d.id}`}>
                  Redeliver
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      ) : null}
      <Pager label="Delivery pages" pages={paging} next={page.data?.next_cursor} />
    </>
  );
}
