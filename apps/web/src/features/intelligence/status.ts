import { create } from "zustand";

/** Where a language service is: loading its code or its project, ready, or failed to start. */
export type ServiceState = "loading" | "ready" | "failed";

interface ServiceStatus {
  /** By service name ("TypeScript", "Python", "C/C++"). */
  services: Record<string, ServiceState>;
  set(name: string, state: ServiceState): void;
  /** The service stopped (its editor went): the status bar no longer names it. */
  remove(name: string): void;
}

/** Each language service's state, for the status bar and for never showing an empty list while one loads. */
export const useServiceStatus = create<ServiceStatus>((set) => ({
  services: {},
  set: (name, state) => set((s) => ({ services: { ...s.services, [name]: state } })),
  remove: (name) =>
    set((s) => {
      const { [name]: _removed, ...rest } = s.services;
      return { services: rest };
    }),
}));
