import { existsSync, mkdirSync, readdirSync, symlinkSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * Gives an exported copy of the repository at `dir` the repository's node_modules, through
 * symlinks: our own packages point at the exported copies, and a workspace's own dependencies
 * (those npm could not hoist: another version is at the root, as apps/server's lru-cache) are
 * linked beside it, so a build exported from a commit resolves what the checkout resolves.
 */
export function linkNodeModules(dir: string): void {
  const shared = path.join(root, "node_modules");
  const own = path.join(dir, "node_modules");
  mkdirSync(path.join(own, "@ensemble"), { recursive: true });
  for (const entry of readdirSync(shared)) {
    if (entry !== "@ensemble") symlinkSync(path.join(shared, entry), path.join(own, entry));
  }
  const workspaces: Record<string, string> = {
    collab: "packages/collab",
    protocol: "packages/protocol",
    server: "apps/server",
    bench: "bench",
  };
  for (const [name, folder] of Object.entries(workspaces)) {
    if (!existsSync(path.join(dir, folder))) continue;
    symlinkSync(path.join(dir, folder), path.join(own, "@ensemble", name));
    const nested = path.join(root, folder, "node_modules");
    if (existsSync(nested) && !existsSync(path.join(dir, folder, "node_modules")))
      symlinkSync(nested, path.join(dir, folder, "node_modules"));
  }
}
