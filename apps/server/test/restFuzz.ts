import http from "node:http";
import zlib from "node:zlib";
import { z } from "zod";

/** One request the fuzz sends: anything a client could put on the wire. */
export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** What was malformed, for the failure report. */
  label: string;
}

/** What a route's body is made of: a valid sample, and which fields a wrong value surely breaks. */
export interface RouteSpec {
  /** A body the route would accept; every request breaks at least one of its `breakable` fields. */
  sample?: Record<string, unknown>;
  /** Fields whose wrong type, NUL or (when required) absence the route must refuse. */
  breakable?: { field: string; required: boolean }[];
  /**
   * The route acts on its caller with no body to break (sign out everywhere): it is sent only
   * with a token that is nobody's valid one.
   */
  actsOnCaller?: boolean;
}

/** What the fuzz knows of the server: real ids and tokens, so it reaches past the first checks. */
export interface FuzzContext {
  token: string;
  otherToken: string;
  expiredToken: string;
  userId: string;
  otherUserId: string;
  sessionId: string;
}

/** A property of an object or function (Express's app and routers are functions), else undefined. */
function field(value: unknown, key: string): unknown {
  return (typeof value === "object" || typeof value === "function") && value !== null
    ? Reflect.get(value, key)
    : undefined;
}

/** "GET /api/session/:id" for every route Express has, from its router stack (API and web). */
export function listRoutes(app: unknown): string[] {
  const MethodsSchema = z.record(z.string(), z.boolean());
  const routes: string[] = [];
  const walk = (stack: unknown, prefix: string) => {
    for (const layer of z.array(z.unknown()).parse(stack)) {
      const route = field(layer, "route");
      const inner = field(field(layer, "handle"), "stack");
      if (route) {
        for (const method of Object.keys(MethodsSchema.parse(field(route, "methods")))) {
          routes.push(`${method.toUpperCase()} ${prefix}${String(field(route, "path"))}`);
        }
      } else if (inner) {
        const mount = field(layer, "rawPath");
        walk(inner, prefix + (typeof mount === "string" && mount !== "/" ? mount : ""));
      }
    }
  };
  walk(field(field(app, "router"), "stack"), "");
  return routes;
}

const WRONG_TYPES: unknown[] = [42, -1, 1.5, 1e308, true, false, null, [], [1, "a"], {}, { a: { b: 1 } }, ""];
const NUL_TEXT = ["\0", "a\0b", "\0".repeat(10)];
const ODD_TEXT = [
  "\ud800",
  "\udfff",
  "\u202eevil",
  "zero\u200bwidth",
  "😀".repeat(40),
  "e\u0301\u0301\u0301",
  "\uffff\ufffe",
  "\ufeffbom",
  "%ZZ%E0%A4%A",
  "../../etc/passwd",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "x".repeat(300),
  "   ",
  "\r\n\t",
];
const ODD_KEYS = ["__proto__", "constructor", "prototype", "", "\ud800", "a.b", "$where"];
const METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"];
const BAD_ESCAPES = ["%", "%Z", "%ZZ", "%E0%A4%A", "%C0%AF", "%00", "%ED%A0%80", "%FF%FE", "%25%", "%u0041"];
const CONTENT_TYPES = [
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/json; charset=latin1",
  "application/json; charset=utf-16",
  "application/jsonx",
  "json",
  ";;;",
  "application/json; charset=utf-8",
  "APPLICATION/JSON",
];

/** A path segment of odd text; a lone surrogate has no UTF-8, so it goes as the bytes one would be. */
function encodeOdd(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return "%ED%A0%80";
  }
}

/**
 * A seeded generator of malformed requests against `routes` (each "METHOD /path"), every one
 * of which a correct server refuses without changing anything: a body route always gets a
 * body that breaks a field its spec names, then one more thing goes wrong (method, path,
 * headers, token, encoding, or the body itself).
 */
export function restFuzzer(random: () => number, specs: Record<string, RouteSpec>, ctx: FuzzContext) {
  const int = (max: number) => Math.floor(random() * max);
  const pick = <T>(list: readonly T[]): T => {
    if (list.length === 0) throw new Error("pick from an empty list");
    return list[int(list.length)] as T;
  };
  const chance = (p: number) => random() < p;

  const brokenBody = (spec: RouteSpec): { body: Record<string, unknown>; label: string } => {
    const body: Record<string, unknown> = { ...spec.sample };
    const labels: string[] = [];
    const target = pick(spec.breakable ?? []);
    const ways = [...WRONG_TYPES, ...NUL_TEXT, ...(target.required ? [undefined] : [])];
    const wrong = pick(ways);
    if (wrong === undefined) delete body[target.field];
    else body[target.field] = wrong;
    labels.push(`${target.field}=${JSON.stringify(wrong) ?? "missing"}`);
    // Beside the broken field, others may hold odd but valid text, or unknown keys.
    for (const field of Object.keys(body)) {
      if (field !== target.field && chance(0.3)) body[field] = pick(ODD_TEXT);
    }
    if (chance(0.3)) body[pick(ODD_KEYS)] = pick([...WRONG_TYPES, ...ODD_TEXT]);
    return { body, label: labels.join(",") };
  };

  const param = () =>
    pick([
      ctx.sessionId,
      ctx.userId,
      ctx.otherUserId,
      "demo-session",
      "x".repeat(int(3000)),
      pick(BAD_ESCAPES),
      `a${pick(BAD_ESCAPES)}b`,
      encodeOdd(pick(ODD_TEXT)),
      "..",
      "%2e%2e%2f%2e%2e",
      "null",
      "-1",
    ]);

  const fillPath = (template: string) => template.replace(/:\w+/g, () => param());

  const garbageBody = (): { body: Buffer; label: string } => {
    const kind = int(9);
    if (kind === 0) return { body: Buffer.from("{not json"), label: "invalid JSON" };
    if (kind === 1) {
      const bytes = Buffer.alloc(1 + int(2000));
      for (let i = 0; i < bytes.length; i++) bytes[i] = int(256);
      return { body: bytes, label: "random bytes" };
    }
    if (kind === 2)
      return {
        body: Buffer.from(pick(['"text"', "42", "null", "[]", "true", "-0", "1e999"])),
        label: "scalar",
      };
    if (kind === 3) {
      const depth = 10 + int(40_000);
      const open = chance(0.5) ? "[" : '{"a":';
      const close = open === "[" ? "]" : "}";
      return { body: Buffer.from(`${open.repeat(depth)}1${close.repeat(depth)}`), label: `nested ${depth}` };
    }
    if (kind === 4) return { body: Buffer.from(`{"a":"${"x".repeat(150_000)}"}`), label: "oversized" };
    if (kind === 5) return { body: Buffer.alloc(0), label: "empty" };
    if (kind === 6) return { body: Buffer.from("\ufeff{}"), label: "BOM" };
    if (kind === 7)
      return { body: Buffer.from('{"a":1,"a":2,"__proto__":{"x":1}}'), label: "duplicate and proto keys" };
    return { body: Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]), label: "UTF-16 bytes" };
  };

  const authHeader = (): { value?: string; label: string } => {
    const forged = `${Buffer.from('{"alg":"HS256"}').toString("base64url")}.${Buffer.from(`{"sub":"${ctx.otherUserId}"}`).toString("base64url")}.c2lnbmF0dXJl`;
    return pick([
      { label: "no token" },
      { value: "Bearer", label: "empty bearer" },
      { value: `Bearer ${forged}`, label: "forged token" },
      { value: `Bearer ${ctx.expiredToken}`, label: "expired token" },
      { value: `Bearer ${ctx.otherToken}`, label: "another user's token" },
      { value: `Bearer ${"a".repeat(5000)}`, label: "long token" },
      { value: `Basic ${Buffer.from("a:b").toString("base64")}`, label: "basic auth" },
      { value: `Bearer ${ctx.token.slice(0, -2)}xx`, label: "tampered token" },
      { value: "Bearer none.none.none", label: "alg none" },
    ]);
  };

  /** The next malformed request against one of the routes. */
  return (routes: string[]): FuzzRequest => {
    const route = pick(routes);
    const [routeMethod = "GET", template = "/"] = route.split(" ");
    const spec = specs[route] ?? {};
    const headers: Record<string, string> = { authorization: `Bearer ${ctx.token}` };
    let method = routeMethod;
    let path = fillPath(template);
    let body: Buffer | undefined;
    const labels = [route];
    if (spec.breakable) {
      const broken = brokenBody(spec);
      body = Buffer.from(JSON.stringify(broken.body));
      headers["content-type"] = "application/json";
      labels.push(broken.label);
    }
    const twist = int(8);
    if (twist === 1) {
      method = pick(METHODS);
      labels.push(`method ${method}`);
    } else if (twist === 2) {
      const garbage = garbageBody();
      body = garbage.body;
      headers["content-type"] = "application/json";
      labels.push(garbage.label);
    } else if (twist === 3) {
      headers["content-type"] = pick(CONTENT_TYPES);
      labels.push(`content-type ${headers["content-type"]}`);
    } else if (twist === 4) {
      const encoding = pick([
        "gzip",
        "deflate",
        "br",
        "gzip, gzip",
        "identity",
        "compress",
        "x-bogus",
        "bomb",
      ]);
      if (encoding === "bomb") {
        // 10 MB of zeros, a few KB compressed: the body limit counts what it decodes to.
        body = zlib.gzipSync(Buffer.alloc(10_000_000));
        headers["content-encoding"] = "gzip";
      } else headers["content-encoding"] = encoding;
      headers["content-type"] = "application/json";
      body ??= Buffer.from("{}");
      labels.push(`content-encoding ${encoding}`);
    } else if (twist === 5) {
      path = `${path}${pick(["?", "?%ZZ", "?a=%00", "?a[b][c][d]=1", `?${"q=1&".repeat(2000)}`, "/", "//", "/..", "%2F"])}`;
      labels.push(`path ${path.slice(0, 80)}`);
    } else if (twist === 6) {
      const auth = authHeader();
      if (auth.value === undefined) delete headers.authorization;
      else headers.authorization = auth.value;
      labels.push(auth.label);
    } else if (twist === 7) {
      if (chance(0.5)) headers["x-huge"] = "h".repeat(20_000 + int(20_000));
      else for (let i = 0; i < 200; i++) headers[`x-many-${i}`] = "v".repeat(100);
      labels.push("huge headers");
    }
    // A twisted method may land on another route of the same path (GET → DELETE /api/session/:id).
    if ((specs[`${method} ${template}`] ?? spec).actsOnCaller) {
      let auth = authHeader();
      while (auth.label === "another user's token") auth = authHeader();
      if (auth.value === undefined) delete headers.authorization;
      else headers.authorization = auth.value;
      labels.push(auth.label);
    }
    return { method, path, headers, ...(body ? { body } : {}), label: labels.join(" | ") };
  };
}

/** Sends one request over `agent`; resolves with the status (0 when the connection failed) and body. */
export function send(
  base: URL,
  agent: http.Agent,
  request: FuzzRequest,
): Promise<{ status: number; contentType: string; body: string }> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: base.hostname,
        port: base.port,
        agent,
        method: request.method,
        path: request.path,
        headers: request.body
          ? { ...request.headers, "content-length": String(request.body.length) }
          : request.headers,
        timeout: 15_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers["content-type"] ?? ""),
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", () => resolve({ status: 0, contentType: "", body: "response error" }));
      },
    );
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", (error) => resolve({ status: 0, contentType: "", body: String(error) }));
    req.end(request.body);
  });
}
