import type http from "node:http";
import { z } from "zod";
import type { FakeGithubRepo, FakeGithubUser } from "./fakeGithubRest";

/** A pull request the fake holds. */
export interface FakePull {
  number: number;
  owner: string;
  repo: string;
  title: string;
  body: string;
  head: string;
  base: string;
  headSha: string;
  via: "rest" | "graphql";
}

/** A comment on a pull request's conversation (GitHub's issue comments). */
export interface FakeComment {
  id: number;
  owner: string;
  repo: string;
  /** The pull request's number: on GitHub a pull request is an issue too. */
  issue: number;
  body: string;
  author: string;
}

/** What the pull handlers need from the fake that owns them. */
export interface PullsContext {
  pulls: FakePull[];
  comments: FakeComment[];
  /** Calls of each kind still to refuse (to test the fallbacks), with the status to answer. */
  refuse: {
    rest: { calls: number; status: number };
    graphql: { calls: number };
    comments: { calls: number; status: number };
  };
  baseUrl: () => string;
  findRepo: (owner: string, repo: string) => FakeGithubRepo | undefined;
  findRepoById: (id: number) => FakeGithubRepo | undefined;
  branchSha: (owner: string, repo: string, branch: string) => Promise<string | undefined>;
  /** How many commits `head` has that `base` has not. */
  commitsBetween: (owner: string, repo: string, base: string, head: string) => Promise<number>;
  /** The files `head` changes since its merge base with `base` (`git diff --name-status base...head`). */
  filesBetween: (
    owner: string,
    repo: string,
    base: string,
    head: string,
  ) => Promise<{ filename: string; status: string }[]>;
}

const CreatePullSchema = z.object({
  title: z.string().min(1),
  body: z.string().nullish(),
  head: z.string().min(1),
  base: z.string().min(1),
});

/** Checks a new PR as GitHub does; the error message GitHub would give, or the PR. */
async function openPull(
  ctx: PullsContext,
  repo: FakeGithubRepo,
  input: { title: string; body: string; head: string; base: string },
  via: FakePull["via"],
): Promise<{ error: string } | FakePull> {
  const head = input.head.includes(":") ? (input.head.split(":")[1] ?? "") : input.head;
  const headSha = await ctx.branchSha(repo.owner, repo.name, head);
  if (!headSha) return { error: "head" };
  if (!(await ctx.branchSha(repo.owner, repo.name, input.base))) return { error: "base" };
  if (
    ctx.pulls.some(
      (p) => p.owner === repo.owner && p.repo === repo.name && p.head === head && p.base === input.base,
    )
  )
    return { error: `A pull request already exists for ${repo.owner}:${head}.` };
  if ((await ctx.commitsBetween(repo.owner, repo.name, input.base, head)) === 0)
    return { error: `No commits between ${input.base} and ${head}` };
  const pull: FakePull = {
    number: ctx.pulls.length + 1,
    owner: repo.owner,
    repo: repo.name,
    title: input.title,
    body: input.body,
    head,
    base: input.base,
    headSha,
    via,
  };
  ctx.pulls.push(pull);
  return pull;
}

const htmlUrl = (ctx: PullsContext, pull: FakePull) =>
  `${ctx.baseUrl()}/${pull.owner}/${pull.repo}/pull/${pull.number}`;

const CreateCommentSchema = z.object({ body: z.string().min(1) });

/** `GET|POST /repos/{o}/{r}/issues/{n}/comments` on the fake's pull requests (its only issues). */
function handleComments(
  ctx: PullsContext,
  user: FakeGithubUser,
  method: string,
  match: RegExpExecArray,
  body: Record<string, unknown> | undefined,
  json: (status: number, payload: unknown) => boolean,
): boolean {
  const docs = "https://docs.github.com/rest/issues/comments#create-an-issue-comment";
  const repo = ctx.findRepo(decodeURIComponent(match[1] ?? ""), decodeURIComponent(match[2] ?? ""));
  const number = Number(match[3]);
  const notFound = () => json(404, { message: "Not Found", documentation_url: docs, status: "404" });
  if (!repo || (repo.private && repo.owner !== user.login)) return notFound();
  if (!ctx.pulls.some((p) => p.owner === repo.owner && p.repo === repo.name && p.number === number))
    return notFound();
  const shown = (c: FakeComment) => ({
    id: c.id,
    body: c.body,
    user: { login: c.author },
    html_url: `${ctx.baseUrl()}/${c.owner}/${c.repo}/pull/${c.issue}#issuecomment-${c.id}`,
  });
  const ofIssue = ctx.comments.filter(
    (c) => c.owner === repo.owner && c.repo === repo.name && c.issue === number,
  );
  if (method === "GET") return json(200, ofIssue.map(shown));
  if (method !== "POST") return false;
  if (ctx.refuse.comments.calls > 0) {
    ctx.refuse.comments.calls -= 1;
    const status = ctx.refuse.comments.status;
    return json(status, { message: "Server Error", status: String(status) });
  }
  const input = CreateCommentSchema.safeParse(body);
  if (!input.success)
    return json(422, { message: "Invalid request.", documentation_url: docs, status: "422" });
  const comment: FakeComment = {
    id: ctx.comments.length + 1,
    owner: repo.owner,
    repo: repo.name,
    issue: number,
    body: input.data.body,
    author: user.login,
  };
  ctx.comments.push(comment);
  return json(201, shown(comment));
}

/**
 * `POST|GET /repos/{o}/{r}/pulls`, the comments of a pull request, and the GraphQL
 * `createPullRequest` mutation (with the `repository { id }` query before it), with GitHub's
 * statuses and 422 bodies. Answers false when the request is none of these.
 */
export async function handlePulls(
  ctx: PullsContext,
  user: FakeGithubUser,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: URL,
  body: Record<string, unknown> | undefined,
): Promise<boolean> {
  const json = (status: number, payload: unknown) => {
    res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify(payload));
    return true;
  };
  const docs = "https://docs.github.com/rest/pulls/pulls#create-a-pull-request";
  const method = req.method ?? "GET";

  const comments = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(url.pathname);
  if (comments) return handleComments(ctx, user, method, comments, body, json);

  const files = /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)\/files$/.exec(url.pathname);
  if (files && method === "GET") {
    const [owner, name, number] = [files[1], files[2], Number(files[3])].map((v) =>
      decodeURIComponent(String(v)),
    );
    const pull = ctx.pulls.find((p) => p.owner === owner && p.repo === name && p.number === Number(number));
    if (!pull) return json(404, { message: "Not Found", status: "404" });
    return json(200, await ctx.filesBetween(pull.owner, pull.repo, pull.base, pull.head));
  }

  const path = /^\/repos\/([^/]+)\/([^/]+)\/pulls$/.exec(url.pathname);
  if (path) {
    const repo = ctx.findRepo(decodeURIComponent(path[1] ?? ""), decodeURIComponent(path[2] ?? ""));
    if (!repo || (repo.private && repo.owner !== user.login))
      return json(404, { message: "Not Found", documentation_url: docs, status: "404" });
    if (method === "GET")
      return json(
        200,
        ctx.pulls
          .filter((p) => p.owner === repo.owner && p.repo === repo.name)
          .map((p) => ({
            number: p.number,
            title: p.title,
            body: p.body,
            head: { ref: p.head, sha: p.headSha },
            base: { ref: p.base },
            html_url: htmlUrl(ctx, p),
            state: "open",
          })),
      );
    if (method !== "POST") return false;
    if (ctx.refuse.rest.calls > 0) {
      ctx.refuse.rest.calls -= 1;
      return json(ctx.refuse.rest.status, {
        message: "Server Error",
        status: String(ctx.refuse.rest.status),
      });
    }
    if (repo.owner !== user.login)
      return json(403, {
        message: "Resource not accessible by personal access token",
        documentation_url: docs,
        status: "403",
      });
    const input = CreatePullSchema.safeParse(body);
    if (!input.success)
      return json(422, { message: "Invalid request.", documentation_url: docs, status: "422" });
    const opened = await openPull(ctx, repo, { ...input.data, body: input.data.body ?? "" }, "rest");
    if ("error" in opened) {
      const error =
        opened.error === "head" || opened.error === "base"
          ? { resource: "PullRequest", field: opened.error, code: "invalid" }
          : { resource: "PullRequest", code: "custom", message: opened.error };
      return json(422, {
        message: "Validation Failed",
        errors: [error],
        documentation_url: docs,
        status: "422",
      });
    }
    return json(201, {
      number: opened.number,
      html_url: htmlUrl(ctx, opened),
      title: opened.title,
      body: opened.body,
      state: "open",
      head: { ref: opened.head, sha: opened.headSha },
      base: { ref: opened.base },
    });
  }

  if (method === "POST" && url.pathname === "/graphql") {
    const query = String(body?.query ?? "");
    const variables = (body?.variables ?? {}) as Record<string, unknown>;
    if (ctx.refuse.graphql.calls > 0) {
      ctx.refuse.graphql.calls -= 1;
      return json(200, {
        data: null,
        errors: [{ type: "FORBIDDEN", message: "Resource not accessible by integration" }],
      });
    }
    if (/createPullRequest/.test(query)) {
      const id = Number(String(variables.repositoryId ?? "").replace(/^R_/, ""));
      const repo = ctx.findRepoById(id);
      if (!repo)
        return json(200, {
          data: null,
          errors: [{ type: "NOT_FOUND", message: "Could not resolve to a node" }],
        });
      const opened = await openPull(
        ctx,
        repo,
        {
          title: String(variables.title ?? ""),
          body: String(variables.body ?? ""),
          head: String(variables.headRefName ?? ""),
          base: String(variables.baseRefName ?? ""),
        },
        "graphql",
      );
      if ("error" in opened)
        return json(200, { data: null, errors: [{ type: "UNPROCESSABLE", message: opened.error }] });
      return json(200, {
        data: { createPullRequest: { pullRequest: { number: opened.number, url: htmlUrl(ctx, opened) } } },
      });
    }
    if (/repository\s*\(/.test(query)) {
      const repo = ctx.findRepo(String(variables.owner ?? ""), String(variables.name ?? ""));
      if (!repo)
        return json(200, {
          data: { repository: null },
          errors: [{ type: "NOT_FOUND", message: "Could not resolve to a Repository" }],
        });
      return json(200, { data: { repository: { id: `R_${repo.id}` } } });
    }
    return json(200, { data: null, errors: [{ message: "The fake GitHub knows only createPullRequest" }] });
  }
  return false;
}
