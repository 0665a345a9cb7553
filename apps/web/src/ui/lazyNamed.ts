import { type ComponentType, lazy } from "react";

/** A component loaded when first rendered (inside a Suspense), from a module that exports it by name. */
export function lazyNamed<K extends string, P extends object>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
) {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}
