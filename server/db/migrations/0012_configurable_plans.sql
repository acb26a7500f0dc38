-- Plans are configured by the operator (PARLANCE_PLANS: free, starter and unlimited built in, more by name), so the
-- column holds any plan name; the service checks it against the configuration, and an organisation whose plan is no
-- longer configured is refused with a message naming `parlance admin org set-plan` rather than given other limits.

alter table organisations drop constraint if exists organisations_plan_check;
alter table organisations add constraint organisations_plan_name check (plan ~ '^[a-z][a-z0-9_-]{0,31}$');
