import { type FormEvent, useEffect, useState } from "react";
import { Link, Navigate, useNavigate, useSearchParams } from "react-router-dom";
import { toast } from "react-toastify/unstyled";
import { Spinner } from "../../ui/Spinner";
import { AuthCard } from "./AuthCard";
import { GitHubButton } from "./GitHubButton";
import { useAuthStore } from "./store";

/** /signin: email or username plus password (spec §2, §4, §5). */
export function SignInPage() {
  const { isAuthenticated, loading, error, login, clearError } = useAuthStore();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const queryError = searchParams.get("error");

  useEffect(() => {
    clearError();
  }, [clearError]);

  // `?error=` is a code we show our own message for, never the address's text. The protocol
  // loads on demand: a signed-out visitor's first page does without it.
  useEffect(() => {
    if (!queryError) return;
    void import("@ensemble/protocol").then(({ oauthErrorMessage }) => {
      toast.error(oauthErrorMessage(queryError), { toastId: `signin-query-${queryError}` });
    });
  }, [queryError]);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (email.trim() === "" || password === "") {
      toast.error("Please fill in all fields");
      return;
    }
    const result = await login(email.trim(), password);
    if (result.ok) {
      toast.success(`Welcome back, ${result.user?.name || "User"}!`);
      navigate("/");
    } else {
      toast.error(result.message);
    }
  }

  if (isAuthenticated) return <Navigate to="/" replace />;

  return (
    <AuthCard title="Sign In" subtitle="Welcome back. Pick up where your team left off.">
      <form className="form" onSubmit={handleSubmit} noValidate>
        <div className="field">
          <label htmlFor="signin-email">Email/Username</label>
          <input
            id="signin-email"
            type="text"
            autoComplete="username"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="signin-password">Password</label>
          <input
            id="signin-password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </div>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="button button-primary button-block" disabled={loading}>
          {loading && <Spinner />}
          Sign In
        </button>
      </form>
      <p className="auth-switch">
        <Link to="/signup">New User?</Link>
      </p>
      <div className="divider">
        <span>or continue with</span>
      </div>
      <GitHubButton />
    </AuthCard>
  );
}
