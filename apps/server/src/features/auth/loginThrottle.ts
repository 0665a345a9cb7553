import type { Limiter, Limiters } from "../../limiter";

/** How failed logins slow down further attempts. */
export interface LoginThrottleSpec {
  /** The window every count below lives in. */
  windowSeconds: number;
  /** Attempts of any kind from one address per window; past it, a refusal until the window ends. */
  maxPerAddress: number;
  /** Failures of one account from one address before each further attempt waits. */
  freeFailuresPerPair: number;
  /** Failures of one account from all addresses before attempts from unknown addresses wait. */
  freeFailuresPerAccount: number;
  /** The longest wait: delays double from 1 s up to it. */
  maxDelaySeconds: number;
}

/**
 * An address that signed in to an account is known to it for this long (the memory store's
 * timers hold at most 24.8 days).
 */
const KNOWN_ADDRESS_SECONDS = 14 * 24 * 3600;
/** Counters that only count: their limit is never reached. */
const UNBOUNDED = 1_000_000_000;

/**
 * Throttles password guessing without handing an attacker the owner's lockout. Failures count
 * per (account, address) and per account; past a free allowance each further attempt waits 1,
 * 2, 4, … s up to a cap, rather than being locked out for the window. The account-wide wait,
 * which slows guessing spread over many addresses, does not apply at an address that signed in
 * to that account before, so the owner at home is slowed only by their own failures there.
 * `account` is the user id once the identifier resolves (username and email count as one), or
 * a key of the unknown identifier, which counts the same way so a 429 tells nothing.
 */
export function createLoginThrottle(limiters: Limiters, spec: LoginThrottleSpec) {
  const counter = (name: string, durationSeconds = spec.windowSeconds) =>
    limiters.create({ name, points: UNBOUNDED, durationSeconds });
  const perAddress = limiters.create({
    name: "login-address",
    points: spec.maxPerAddress,
    durationSeconds: spec.windowSeconds,
  });
  const pairFailures = counter("login-pair-failures");
  const accountFailures = counter("login-account-failures");
  // Only ever blocked: their keys' waits are set by `block`, one at a time.
  const pairWait = counter("login-pair-wait");
  const accountWait = counter("login-account-wait");
  const knownAddresses = counter("login-known-address", KNOWN_ADDRESS_SECONDS);

  const pairKey = (account: string, address: string) => `${account}|${address}`;
  const delay = (failures: number, free: number) =>
    failures > free ? Math.min(spec.maxDelaySeconds, 2 ** (failures - free - 1)) : 0;

  async function countFailure(failures: Limiter, wait: Limiter, key: string, free: number) {
    await failures.take(key);
    const seconds = delay(await failures.used(key), free);
    if (seconds > 0) await wait.block(key, seconds);
  }

  return {
    /**
     * Seconds `address` must wait before trying `account`, or 0 after counting this attempt
     * against the address.
     */
    async admit(account: string, address: string): Promise<number> {
      const pair = pairKey(account, address);
      const isKnown = (await knownAddresses.used(pair)) > 0;
      const wait = Math.max(
        await perAddress.retryAfter(address),
        await pairWait.retryAfter(pair),
        isKnown ? 0 : await accountWait.retryAfter(account),
      );
      if (wait > 0) return wait;
      return perAddress.take(address);
    },

    async failed(account: string, address: string): Promise<void> {
      await countFailure(pairFailures, pairWait, pairKey(account, address), spec.freeFailuresPerPair);
      await countFailure(accountFailures, accountWait, account, spec.freeFailuresPerAccount);
    },

    /** The pair starts afresh and the address becomes known to the account. */
    async succeeded(account: string, address: string): Promise<void> {
      const pair = pairKey(account, address);
      await pairFailures.reset(pair);
      await pairWait.reset(pair);
      await knownAddresses.take(pair);
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
