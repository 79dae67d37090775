/** The spec's "simple {email} shape": something@something.something, no spaces. */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Whether the address has the simple shape every e-mail field asks for (spaces around it aside). */
export function isEmailShape(email: string): boolean {
  return EMAIL_SHAPE.test(email.trim());
}
