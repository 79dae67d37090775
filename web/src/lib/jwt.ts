/** The claims of an access token that the client looks at. It never verifies them: the server does. */
export type AccessTokenClaims = {
  sub?: string;
  role?: string;
  aal?: 'aal1' | 'aal2' | string;
  session_id?: string;
  exp?: number;
};

/** Reads the payload of a JWT; null when the token is not one. */
export function decodeJwtPayload(token: string): AccessTokenClaims | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const base64 = part
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(part.length / 4) * 4, '=');
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const payload: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return payload && typeof payload === 'object' ? (payload as AccessTokenClaims) : null;
  } catch {
    return null;
  }
}
