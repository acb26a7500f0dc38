-- Deliveries the GitHub App has accepted (the service's, by `webhook-id`; GitHub's, by `X-GitHub-Delivery`): the App
-- answers at once and works afterwards, so a redelivery of an id recorded here is acknowledged and not worked again.
-- A failed job may be run again by the next redelivery; finished rows are pruned after 7 days. A job cut off by a
-- crash or restart (its row still `running`, held by an earlier process) is run again when the App starts, from `payload`.

create table github_app_deliveries (
  -- `parlance:<webhook-id>` or `github:<X-GitHub-Delivery>`: the two senders' ids cannot collide.
  id text primary key,
  event text not null,
  status text not null check (status in ('running', 'done', 'failed')),
  -- Runs of the job (each with its own retries): 1, and one more for every redelivery after a failure.
  runs integer not null default 1,
  last_error text,
  -- What the job needs to run again, as JSON: the verified body of the delivery (and, for the service's, the link id).
  -- Null when the body is over 1 MiB: such a job is not resumed after a crash, only run again by a redelivery.
  payload text,
  -- The App process (a random id per start) running the job; rows `running` under another id are resumed at start.
  instance text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index github_app_deliveries_updated on github_app_deliveries (updated_at);
