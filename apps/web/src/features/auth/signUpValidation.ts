export interface SignUpFields {
  name: string;
  email: string;
  password: string;
  confirmPassword: string;
}

/** The first failing sign-up rule in the spec's order (§5), or null when all pass. */
export function validateSignUp(fields: SignUpFields): string | null {
  if (fields.password !== fields.confirmPassword) return "Passwords do not match";
  if (fields.name.trim() === "") return "Username is required";
  if (fields.email.trim() === "") return "Email is required";
  if (fields.password === "") return "Password is required";
  return null;
}
