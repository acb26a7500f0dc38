-- People: users with argon2id passwords, browser sessions, organisation members with a role, per-project roles,
-- invitations, and the sign-in attempts that rate-limit guessing. Console credentials are session tokens (tokens.kind =
-- 'session') tied to a user and a browser session, so signing out or changing a role reaches them on the next request.

create table users (
  id text primary key,
  -- Stored lower-cased: addresses are compared without regard to case.
  email text not null unique,
  name text,
  password_hash text not null,
  created_at timestamptz not null default now(),
  password_changed_at timestamptz not null default now()
);

create table browser_sessions (
  id text primary key,
  user_id text not null references users (id) on delete cascade,
  -- SHA-256 of the cookie value; the value itself is only ever in the browser.
  secret_hash text not null unique,
  user_agent text,
  ip text,
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz
);
create index browser_sessions_user on browser_sessions (user_id, created_at);

create table organisation_members (
  organisation_id text not null references organisations (id) on delete cascade,
  user_id text not null references users (id) on delete cascade,
  -- The role on every project of the organisation that does not set one of its own.
  role text not null check (role in ('owner', 'admin', 'developer', 'translator')),
  created_at timestamptz not null default now(),
  primary key (organisation_id, user_id)
);
create index organisation_members_user on organisation_members (user_id);

create table project_roles (
  project_id text not null references projects (id) on delete cascade,
  user_id text not null references users (id) on delete cascade,
  role text not null check (role in ('owner', 'admin', 'developer', 'translator')),
  updated_at timestamptz not null default now(),
  primary key (project_id, user_id)
);

create table invitations (
  id text primary key,
  organisation_id text not null references organisations (id) on delete cascade,
  -- The project it was sent from; the role applies to the organisation, and this project is where the invitee lands.
  project_id text references projects (id) on delete set null,
  email text not null,
  role text not null check (role in ('owner', 'admin', 'developer', 'translator')),
  token_hash text not null unique,
  -- The link, encrypted under PARLANCE_SECRET_KEY when one is set; without a key the link is shown once, at creation.
  url_ciphertext text,
  invited_by text references users (id) on delete set null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  accepted_at timestamptz,
  accepted_by text references users (id) on delete set null,
  revoked_at timestamptz,
  mailed boolean not null default false
);
create index invitations_organisation on invitations (organisation_id, created_at);

create table sign_in_attempts (
  id bigserial primary key,
  email text not null,
  ip text not null,
  succeeded boolean not null,
  at timestamptz not null default now()
);
create index sign_in_attempts_email on sign_in_attempts (email, at);
create index sign_in_attempts_ip on sign_in_attempts (ip, at);

alter table tokens add column user_id text references users (id) on delete cascade;
alter table tokens add column browser_session_id text references browser_sessions (id) on delete cascade;
create index tokens_browser_session on tokens (browser_session_id) where browser_session_id is not null;
