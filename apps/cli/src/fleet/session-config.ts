import { configSchema, type HatloopConfig, type SessionRecord } from "@hatloop/core";

/**
 * The configuration a session runs with: what it was submitted with (model, hat, budgets, context,
 * gates, pr), on this worker's database, lease and fleet settings, and with this worker's hooks (a
 * hook's command runs on this machine).
 */
export function sessionConfig(session: SessionRecord, worker: HatloopConfig): HatloopConfig {
  const parsed = configSchema.safeParse({
    ...session.config,
    databaseUrl: worker.databaseUrl,
    leaseTtl: worker.leaseTtl,
    database: worker.database,
    fleet: worker.fleet,
    hooks: worker.hooks,
  });
  const config = parsed.success ? parsed.data : worker;
  return { ...config, model: session.model, worktreeDir: undefined };
}
