import { type FormEvent, useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import { toast } from "react-toastify/unstyled";
import { Spinner } from "../../ui/Spinner";
import { AuthCard } from "./AuthCard";
import { GitHubButton } from "./GitHubButton";
import { type SignUpFields, validateSignUp } from "./signUpValidation";
import { useAuthStore } from "./store";

type Feedback = { kind: "error" | "success"; text: string } | null;

const EMPTY: SignUpFields = { name: "", email: "", password: "", confirmPassword: "" };

const FIELDS = [
  { key: "name", label: "Username", type: "text", autoComplete: "username" },
  { key: "email", label: "Email", type: "email", autoComplete: "email" },
  { key: "password", label: "Password", type: "password", autoComplete: "new-password" },
  { key: "confirmPassword", label: "Confirm Password", type: "password", autoComplete: "new-password" },
] as const;

/** /signup: creates an account, then sends the user on to sign in (spec §4). */
export function SignUpPage() {
  const register = useAuthStore((s) => s.register);
  const [fields, setFields] = useState<SignUpFields>(EMPTY);
  const [isPending, setIsPending] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const navigate = useNavigate();

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isPending) return;
    const invalid = validateSignUp(fields);
    if (invalid) {
      setFeedback({ kind: "error", text: invalid });
      return;
    }
    setFeedback(null);
    setIsPending(true);
    const result = await register(fields.name, fields.email, fields.password);
    setIsPending(false);
    if (result.ok) {
      setFeedback({ kind: "success", text: "Registration successful! Redirecting to login..." });
      toast.success("Registration successful!");
      navigate("/signin");
    } else {
      setFeedback({ kind: "error", text: result.message });
      toast.error("Registration failed. Please try again.");
    }
  }

  return (
    <AuthCard title="Create Account" subtitle="Start coding together in under a minute.">
      <form className="form" onSubmit={handleSubmit} noValidate>
        {FIELDS.map((field) => (
          <div className="field" key={field.key}>
            <label htmlFor={`signup-${field.key}`}>{field.label}</label>
            <input
              id={`signup-${field.key}`}
              type={field.type}
              autoComplete={field.autoComplete}
              required
              value={fields[field.key]}
              onChange={(event) => setFields((prev) => ({ ...prev, [field.key]: event.target.value }))}
            />
          </div>
        ))}
        {feedback && (
          <p className={feedback.kind === "error" ? "form-error" : "form-success"} role="alert">
            {feedback.text}
          </p>
        )}
        <button type="submit" className="button button-primary button-block" disabled={isPending}>
          {isPending && <Spinner />}
          {isPending ? "Signing Up..." : "Sign Up"}
        </button>
      </form>
      <p className="auth-switch">
        <Link to="/signin">Already have an account?</Link>
      </p>
      <div className="divider">
        <span>or continue with</span>
      </div>
      <GitHubButton />
    </AuthCard>
  );
}
