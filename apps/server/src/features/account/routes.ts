import { DeleteAccountBodySchema, exportFileName } from "@ensemble/protocol";
import { type Request, Router } from "express";
import { clientAddress, requireUser } from "../../http/auth";
import { parseBody } from "../../http/validate";
import type { AuthService } from "../auth/index";
import { REAUTH_COOKIE, readCookie } from "../auth/index";
import type { AccountService } from "./service";

/**
 * Deleting and exporting one's account, beside the spec's `/api/auth/user/{id}`: the caller
 * must be that user (the token's, not the address's), else 403 and nothing changes.
 */
export function accountRoutes(account: AccountService, auth: AuthService): Router {
  const router = Router();
  const authenticate = (req: Request) => requireUser(req, auth.authenticate);

  router.get("/auth/user/:id/deletion", async (req, res) => {
    const caller = await authenticate(req);
    res.json(await account.preview(caller.id, req.params.id));
  });

  router.delete("/auth/user/:id", async (req, res) => {
    const caller = await authenticate(req);
    const body = parseBody(req, DeleteAccountBodySchema);
    const state = readCookie(req, REAUTH_COOKIE);
    res.clearCookie(REAUTH_COOKIE, { path: "/api/auth/user" });
    res.json(await account.delete(caller.id, req.params.id, body, clientAddress(req), state));
  });

  router.get("/auth/user/:id/export", async (req, res) => {
    const caller = await authenticate(req);
    const zip = await account.export(caller.id, req.params.id);
    res.set("Content-Type", "application/zip");
    res.set("Content-Disposition", `attachment; filename="${exportFileName(new Date())}"`);
    res.set("Cache-Control", "no-store");
    res.send(Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength));
  });

  return router;
}
