import { PR_MESSAGES, type PullRequest, type TerminalEntry } from "@ensemble/protocol";
import { DomainError } from "../../errors";
import type { CommandDefinition } from "../terminal/index";
import type { PullRequestService } from "./service";

const out = (content: string): TerminalEntry => ({ type: "output", content });
const err = (content: string): TerminalEntry => ({ type: "error", content });

const HELP = [
  "Pull request commands:",
  "  pr create <title>   propose the files as they are now (also: pr new)",
  "  pr list             every pull request of this session",
  "  pr review [id]      what waits for review, or one pull request's details",
  "  pr status <id>      one pull request's status",
  "  pr help             this help",
].join("\n");

const line = (pr: PullRequest) => `  ${pr.id}  [${pr.status}]  "${pr.title}" by ${pr.author}`;

function details(pr: PullRequest): string {
  return [
    `${pr.id}: "${pr.title}" by ${pr.author}`,
    `  status: ${pr.status}${pr.reviewedBy ? ` (by ${pr.reviewedBy})` : ""}`,
    `  ${pr.sourceBranch} → ${pr.targetBranch}; files: ${pr.files.join(", ")}`,
    ...(pr.comments ? [`  comment: ${pr.comments}`] : []),
    ...(pr.prUrl ? [`  GitHub: ${pr.prUrl}`] : []),
  ].join("\n");
}

/** The terminal's `pr` command (spec §7): create, list, review, status, help. */
export function prCommand(pulls: PullRequestService): CommandDefinition {
  return {
    name: "pr",
    summary: "pull requests: pr create <title> | list | review [id] | status <id> | help",
    readsOnly: ([sub = ""]) => ["", "list", "review", "status", "help"].includes(sub.toLowerCase()),
    async execute({ sessionId, who, line: typed, reply }) {
      const [, sub = "", ...rest] = typed.split(/\s+/);
      try {
        switch (sub.toLowerCase()) {
          case "create":
          case "new": {
            const title = typed
              .replace(/^\S+\s+\S+\s*/, "")
              .replace(/^(["'])(.*)\1$/, "$2")
              .trim();
            const { pr, message } = await pulls.create(sessionId, who, { title });
            return reply([
              out(`Created pull request ${pr.id} "${pr.title}" (${pr.files.length} files). ${message}`),
            ]);
          }
          case "list": {
            const prs = await pulls.list(sessionId);
            return reply([
              out(prs.length ? ["Pull requests:", ...prs.map(line)].join("\n") : "No pull requests yet."),
            ]);
          }
          case "review": {
            if (rest[0])
              return reply([
                out(
                  `${details(await pulls.get(sessionId, rest[0]))}\nOpen it from the PR list to review it.`,
                ),
              ]);
            const pending = (await pulls.list(sessionId)).filter((pr) => pr.status === "pending");
            return reply([
              out(
                pending.length
                  ? [
                      "Waiting for review:",
                      ...pending.map(line),
                      "Open one from the PR list to review it.",
                    ].join("\n")
                  : "No pull requests are waiting for review.",
              ),
            ]);
          }
          case "status": {
            if (!rest[0]) return reply([err(PR_MESSAGES.idRequired)]);
            return reply([out(details(await pulls.get(sessionId, rest[0])))]);
          }
          case "":
          case "help":
            return reply([out(HELP)]);
          default:
            return reply([err(PR_MESSAGES.unknownCommand(sub))]);
        }
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        return reply([err(error.message)]);
      }
    },
  };
}
