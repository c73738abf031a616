import type { Database } from './database';

/**
 * Schema migrations, applied in order on start. Append only: never edit a shipped
 * migration, add a new one. Each runs in its own transaction together with its
 * record in schema_migrations, under an advisory lock so several instances starting
 * at once apply each migration exactly once.
 */
export const MIGRATIONS: readonly { id: number; name: string; sql: string }[] = [
  {
    id: 1,
    name: 'organisations, users, sign-in, sessions',
    sql: `
      CREATE TABLE orgs (
        id text PRIMARY KEY,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE users (
        id text PRIMARY KEY,
        email text NOT NULL UNIQUE,
        display_name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE memberships (
        org_id text NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('owner', 'member')),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, user_id)
      );
      CREATE INDEX memberships_user ON memberships(user_id);

      -- One live code per address: issuing a new code replaces (cancels) the old one.
      CREATE TABLE sign_in_codes (
        email text PRIMARY KEY,
        code_hmac text NOT NULL,
        purpose text NOT NULL,
        payload jsonb,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        failed_attempts integer NOT NULL DEFAULT 0
      );

      -- Sliding-window rate-limit events; in the database so limits hold across instances.
      CREATE TABLE rate_events (
        bucket text NOT NULL,
        at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX rate_events_bucket_at ON rate_events(bucket, at);

      CREATE TABLE sessions (
        id text PRIMARY KEY,
        token_sha256 text NOT NULL UNIQUE,
        user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('web', 'connector')),
        client text,
        created_at timestamptz NOT NULL,
        last_used_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz
      );
      CREATE INDEX sessions_user ON sessions(user_id);

      -- Development outbox: every message the outbox transport "sends".
      CREATE TABLE outbox_messages (
        id bigserial PRIMARY KEY,
        to_email text NOT NULL,
        subject text NOT NULL,
        body_text text NOT NULL,
        code text,
        sent_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX outbox_messages_to ON outbox_messages(to_email, id);
    `,
  },
  {
    id: 2,
    name: 'uploads and blobs',
    sql: `
      -- Content-addressed blobs. A row here means the bytes were stored at created_at;
      -- the sweep removes unreferenced blobs older than a grace period.
      CREATE TABLE blobs (
        sha256 text PRIMARY KEY,
        size_bytes integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE uploads (
        id text PRIMARY KEY,
        artifact_id text,
        org_id text NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        created_by_user_id text REFERENCES users(id) ON DELETE SET NULL,
        file_name text NOT NULL,
        mime_type text NOT NULL,
        size_bytes integer NOT NULL,
        purpose text NOT NULL CHECK (purpose IN ('source_doc', 'playbook')),
        client_reference_id text,
        document_series_id text NOT NULL,
        document_version integer NOT NULL,
        parent_upload_id text,
        version_kind text NOT NULL CHECK (version_kind IN ('original', 'working_draft')),
        storage_key text,
        content_sha256 text,
        has_binary boolean NOT NULL,
        status text NOT NULL DEFAULT 'ready',
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        UNIQUE (document_series_id, document_version)
      );
      CREATE INDEX uploads_org_created ON uploads(org_id, created_at DESC, id DESC);
      CREATE INDEX uploads_series ON uploads(document_series_id);
      CREATE INDEX uploads_sha ON uploads(content_sha256);
    `,
  },
  {
    id: 3,
    name: 'decision log, proposals, undo history',
    sql: `
      -- Append-only decision log: one row per applied batch, and one per undo (kind 'undo',
      -- naming the batch it undid in undoes_seq). Rows are never updated or deleted while
      -- the draft exists; the track is a projection of this log.
      CREATE TABLE decision_batches (
        upload_id text NOT NULL REFERENCES uploads(id) ON DELETE CASCADE,
        seq integer NOT NULL,
        kind text NOT NULL CHECK (kind IN ('decide', 'undo')),
        undoes_seq integer,
        user_id text REFERENCES users(id) ON DELETE SET NULL,
        accepted jsonb NOT NULL,
        rejected jsonb NOT NULL,
        -- What each change decided here was and where it sat in the track (DecidedChange),
        -- and the changes applied with recordDecision false (withdrawn proposals) with theirs.
        decided jsonb NOT NULL,
        withdrawn jsonb NOT NULL,
        previous_sha256 text NOT NULL,
        next_sha256 text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (upload_id, seq)
      );

      -- Changes the service wrote for a user (redline edits), with their justification.
      CREATE TABLE proposals (
        upload_id text NOT NULL REFERENCES uploads(id) ON DELETE CASCADE,
        change_id text NOT NULL,
        user_id text REFERENCES users(id) ON DELETE SET NULL,
        justification text,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (upload_id, change_id)
      );

      -- The track projection: rebuilt from decision_batches whenever it is missing or stale.
      -- The track projection: the whole track as the app reads it, stamped with the log
      -- position and content it was built from. Stale or missing: rebuilt from the log.
      CREATE TABLE track_projection (
        upload_id text PRIMARY KEY REFERENCES uploads(id) ON DELETE CASCADE,
        log_seq integer NOT NULL,
        content_sha256 text NOT NULL,
        track jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    id: 4,
    name: 'sign-in providers, handoffs, API keys, connector (OAuth) storage',
    sql: `
      -- Accounts linked to an OpenID Connect provider, by issuer + subject.
      CREATE TABLE user_identities (
        issuer text NOT NULL,
        subject text NOT NULL,
        user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        email text,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (issuer, subject)
      );
      CREATE INDEX user_identities_user ON user_identities(user_id);

      -- A provider sign-in between its start and its callback (state, nonce, PKCE verifier).
      CREATE TABLE provider_sign_ins (
        state_sha256 text PRIMARY KEY,
        provider_id text NOT NULL,
        code_verifier text NOT NULL,
        nonce text NOT NULL,
        return_to text,
        interaction_uid text,
        expires_at timestamptz NOT NULL
      );

      -- Single-use sign-in handoffs: 128 random bits, 60 s, only the SHA-256 stored.
      CREATE TABLE sign_in_handoffs (
        token_sha256 text PRIMARY KEY,
        user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        expires_at timestamptz NOT NULL,
        consumed_at timestamptz
      );

      -- Organisation API keys (rlk_...), for upload automation; stored as SHA-256.
      CREATE TABLE api_keys (
        id text PRIMARY KEY,
        org_id text NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        name text NOT NULL,
        token_sha256 text NOT NULL UNIQUE,
        created_by_user_id text REFERENCES users(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      );
      CREATE INDEX api_keys_org ON api_keys(org_id);

      -- The connector's OAuth 2.0 server state (oidc-provider adapter models).
      CREATE TABLE oauth_models (
        model text NOT NULL,
        id text NOT NULL,
        payload jsonb NOT NULL,
        grant_id text,
        user_code text,
        uid text,
        expires_at timestamptz,
        consumed_at timestamptz,
        PRIMARY KEY (model, id)
      );
      CREATE INDEX oauth_models_grant ON oauth_models(grant_id);
      CREATE INDEX oauth_models_uid ON oauth_models(uid);

      -- Connector sessions act for one organisation and belong to one OAuth grant.
      ALTER TABLE sessions ADD COLUMN org_id text REFERENCES orgs(id) ON DELETE CASCADE;
      ALTER TABLE sessions ADD COLUMN grant_id text;
      CREATE INDEX sessions_grant ON sessions(grant_id);
    `,
  },
  {
    id: 5,
    name: 'untracked-edit checks of new versions',
    sql: `
      -- One row per version added to a series: its rejected view compared with the rejected view
      -- of the version it was added to. 'running' rows are held by one runner until lease_until;
      -- after that (the runner stopped) the next reader runs the check again.
      CREATE TABLE untracked_checks (
        upload_id text PRIMARY KEY REFERENCES uploads(id) ON DELETE CASCADE,
        against_upload_id text NOT NULL,
        state text NOT NULL CHECK (state IN ('running', 'done', 'failed')),
        lease_until timestamptz,
        count integer,
        changes jsonb,
        error text,
        started_at timestamptz NOT NULL,
        finished_at timestamptz
      );
    `,
  },
  {
    id: 6,
    name: 'comment writes in the decision log',
    sql: `
      -- A comment written on a draft (add, reply, resolve) changes its content, so it is logged
      -- like a batch (kind 'comment', no decisions), with what was written in comment: undoing an
      -- earlier batch replays these on the content it restores, so comments survive an undo.
      ALTER TABLE decision_batches DROP CONSTRAINT IF EXISTS decision_batches_kind_check;
      ALTER TABLE decision_batches ADD CONSTRAINT decision_batches_kind_check CHECK (kind IN ('decide', 'undo', 'comment'));
      ALTER TABLE decision_batches ADD COLUMN comment jsonb;
    `,
  },
  {
    id: 7,
    name: 'live review: redline entries in the decision log, idempotency keys, presence',
    sql: `
      -- Redline edits are log entries too (kind redline, the new change ids in proposed),
      -- so every change to a draft streams to its viewers from the one log.
      ALTER TABLE decision_batches DROP CONSTRAINT decision_batches_kind_check;
      ALTER TABLE decision_batches ADD CONSTRAINT decision_batches_kind_check CHECK (kind IN ('decide', 'undo', 'comment', 'redline'));
      ALTER TABLE decision_batches ADD COLUMN proposed jsonb NOT NULL DEFAULT '[]';

      -- Idempotency-Key of apply, undo and redline edits, per draft: checked and recorded in
      -- the commit's transaction; a replay answers the recorded result (the row, the content
      -- and the log position it committed). Kept 24 hours.
      CREATE TABLE idempotency_keys (
        upload_id text NOT NULL REFERENCES uploads(id) ON DELETE CASCADE,
        key text NOT NULL,
        request_sha256 text NOT NULL,
        user_id text REFERENCES users(id) ON DELETE SET NULL,
        log_seq integer NOT NULL,
        content_sha256 text NOT NULL,
        document jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (upload_id, key)
      );
      CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
      CREATE INDEX idempotency_keys_seq ON idempotency_keys(upload_id, log_seq);

      -- Who has a draft open: one row per open event stream, refreshed by its instance's
      -- heartbeat; rows of a dead instance age out.
      CREATE TABLE review_presence (
        connection_id text PRIMARY KEY,
        upload_id text NOT NULL REFERENCES uploads(id) ON DELETE CASCADE,
        user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        seen_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX review_presence_upload ON review_presence(upload_id, seen_at);
    `,
  },
  {
    id: 10,
    name: 'decision notes in the decision log',
    sql: `
      -- Notes recorded with a batch's decisions ({"<change_id>": "text"}), and entries of kind
      -- 'note' that record a note on a decision made earlier (content unchanged: previous = next).
      ALTER TABLE decision_batches ADD COLUMN notes jsonb NOT NULL DEFAULT '{}'::jsonb;
      -- Every kind so far (6 added 'comment'; issue 16's 7 adds 'redline') plus 'note': this runs after both.
      ALTER TABLE decision_batches DROP CONSTRAINT IF EXISTS decision_batches_kind_check;
      ALTER TABLE decision_batches ADD CONSTRAINT decision_batches_kind_check CHECK (kind IN ('decide', 'undo', 'comment', 'redline', 'note'));
    `,
  },
  {
    // Numbered by its issue (34), as parallel branches each add migrations: ids need only be unique.
    id: 34,
    name: 'comparison summaries of comparison drafts',
    sql: `
      CREATE TABLE comparison_summaries (
        draft_id text PRIMARY KEY REFERENCES uploads(id) ON DELETE CASCADE,
        summary jsonb NOT NULL
      );
      -- The untracked check's count in the list's unit (entries), and the pending tracked changes
      -- of both versions ({"older": n, "newer": n}); null on checks stored before.
      ALTER TABLE untracked_checks ADD COLUMN entries integer;
      ALTER TABLE untracked_checks ADD COLUMN pending jsonb;
    `,
  },
  {
    id: 36,
    name: 'track projections stored item by item',
    sql: `
      -- The track projection's lists (items, entries), a row per member at its position, so a
      -- batch of decisions writes the members it changed instead of the whole track (issue 36):
      -- track_projection.track keeps the rest (counts, hereId) with both lists empty.
      CREATE TABLE track_projection_items (
        upload_id text NOT NULL REFERENCES track_projection(upload_id) ON DELETE CASCADE,
        list text NOT NULL CHECK (list IN ('items', 'entries')),
        pos integer NOT NULL,
        value jsonb NOT NULL,
        PRIMARY KEY (upload_id, list, pos)
      );
      -- Projections stored whole: rebuilt from the log on the next read, as a missing one is.
      DELETE FROM track_projection;
    `,
  },
];

const LOCK_KEY = 740_215_901; // arbitrary, constant: "redline migrations"

export async function migrate(db: Database): Promise<number[]> {
  await db.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
  const applied: number[] = [];
  for (const migration of MIGRATIONS) {
    await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
      const done = await tx.query('SELECT 1 FROM schema_migrations WHERE id = $1', [migration.id]);
      if (done.length > 0) return;
      for (const statement of splitStatements(migration.sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [migration.id, migration.name]);
      applied.push(migration.id);
    });
  }
  return applied;
}

/** Comments go first; our migrations hold no semicolons inside literals, so a split on `;` is then exact. */
function splitStatements(sql: string): string[] {
  return sql
    .replace(/--[^\n]*/g, '')
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
