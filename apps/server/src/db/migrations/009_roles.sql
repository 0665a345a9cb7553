-- Roles host, editor and viewer (DESIGN decision 17); the old 'participant' edits, as before.
ALTER TABLE session_participants DROP CONSTRAINT session_participants_role_check;
UPDATE session_participants SET role = 'editor' WHERE role = 'participant';
ALTER TABLE session_participants
  ADD CONSTRAINT session_participants_role_check CHECK (role IN ('host', 'editor', 'viewer'));
-- Removed by the host: kept out while the session is locked, let in again once it is not.
ALTER TABLE session_participants ADD COLUMN removed_at timestamptz;

-- Guests have no account: their participant id is the hash of the secret their browser keeps.
CREATE TABLE session_guests (
  session_id text NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  guest_id text NOT NULL,
  role text NOT NULL CHECK (role IN ('editor', 'viewer')),
  removed_at timestamptz,
  joined_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (session_id, guest_id)
);

-- The lock (newcomers wait in the lobby), the two share links' keys (made on the host's first
-- ask), and whether the bare id still lets a newcomer edit: false from the moment the session
-- has viewers (a view link was made, or someone was made a viewer), since viewers learn the id.
ALTER TABLE sessions
  ADD COLUMN is_locked boolean NOT NULL DEFAULT false,
  ADD COLUMN edit_key text,
  ADD COLUMN view_key text,
  ADD COLUMN id_grants_edit boolean NOT NULL DEFAULT true;
