export * from "./client";
export * from "./messages";
