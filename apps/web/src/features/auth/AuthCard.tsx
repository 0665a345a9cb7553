import type { ReactNode } from "react";

interface AuthCardProps {
  title: string;
  subtitle: string;
  children: ReactNode;
}

/** The centred card shared by the sign-in and sign-up pages. */
export function AuthCard({ title, subtitle, children }: AuthCardProps) {
  return (
    <div className="auth-page">
      <section className="auth-card" aria-labelledby="auth-title">
        <img className="auth-logo" src="/images/logo.svg" alt="" width="40" height="40" />
        <h1 id="auth-title">{title}</h1>
        <p className="muted auth-subtitle">{subtitle}</p>
        {children}
      </section>
    </div>
  );
}
