import path from "node:path";
import type { AuthService } from "../auth/index";
import type { WorkspaceAccess } from "../collab/index";
import type { CommandRegistry } from "../terminal/index";
import { gitCommand } from "./commands";
import { createVcsService } from "./service";

export type { VcsService } from "./service";
export { VCS_MESSAGES, VcsError } from "./service";

/**
 * Wires version control: a git repository per session under `DATA_DIR/repos`, and the
 * terminal's `git` command. Commits carry the host's name and account e-mail.
 */
export function createVcsFeature(deps: {
  dataDir: string;
  workspace: WorkspaceAccess;
  commands: CommandRegistry;
  auth: AuthService;
}) {
  const service = createVcsService({ reposDir: path.join(deps.dataDir, "repos"), workspace: deps.workspace });
  const authorOf = async (userId: string | undefined, name: string) => {
    const email = userId ? (await deps.auth.getOwn(userId, userId).catch(() => null))?.email : undefined;
    return { name, email: email ?? "anonymous@users.ensemble.invalid" };
  };
  deps.commands.register(gitCommand(service, authorOf));
  return { service };
}
