export * from "./auth";
export * from "./errors";
export * from "./events";
export * from "./execution";
export * from "./limits";
export * from "./sessions";
export * from "./socket";
export * from "./workspace";
