import { type ServiceState, useServiceStatus } from "../status";

const WORDS: Record<ServiceState, (name: string) => string> = {
  loading: (name) => `${name} loading…`,
  ready: (name) => name,
  failed: (name) => `${name} failed`,
};

/**
 * Each language service's state for the status bar: "TypeScript loading…", then a quiet
 * "TypeScript" once ready, or "TypeScript failed" in the error colour. Read out politely.
 */
export function ServiceStatus() {
  const services = useServiceStatus((s) => s.services);
  const entries = Object.entries(services);
  return (
    <span
      className="status-item status-services"
      role="status"
      aria-live="polite"
      data-testid="service-status"
    >
      {entries.map(([name, state]) => (
        <span
          key={name}
          className={`status-service is-${state}`}
          title={`Code intelligence: ${name} ${state}`}
        >
          {WORDS[state](name)}
        </span>
      ))}
    </span>
  );
}
